import Clustering
import Geo
import Locks

/// supercluster's hierarchy over the stores of a list that match a
/// ``StoreFilter``, in list order: a tile with filters clusters only what
/// it shows, so a cluster's count is the count of matching stores under
/// it (martin #1659 asks a tile server for exactly this). One type for
/// both catalogs, which differ only in how they read the list.
package struct FilteredClusterIndex: Sendable {
    package let index: ClusterIndex
    /// The list position of each of the index's points.
    package let positions: [Int]

    /// The index of `candidates`: the matching stores' list positions, in
    /// list order, with their coordinates.
    package static func build(
        candidates: [(position: Int, coordinate: Coordinate)], options: ClusterOptions
    ) throws -> FilteredClusterIndex {
        FilteredClusterIndex(
            index: try ListClusterQueries.build(points: candidates.map(\.coordinate), options: options),
            positions: candidates.map(\.position))
    }

    /// Tile `z`/`x`/`y` of the matching stores, with list positions: the
    /// index's points mapped back to the list; `selected` (a list
    /// position) is kept out of every cluster when it matches, and is not
    /// drawn when it does not (it is not among what the tile shows).
    package func tile(list: String, zoom z: Int, x: Int, y: Int, selected: Int?) throws -> [TileFeature] {
        let local = selected.flatMap { position in positions.binarySearch(position) }
        return try ListClusterQueries.tile(index, list: list, zoom: z, x: x, y: y, selected: local).map { feature in
            guard case .point(let point) = feature.marker else { return feature }
            return TileFeature(marker: .point(positions[point]), x: feature.x, y: feature.y)
        }
    }
}

/// The filtered indexes a catalog keeps: the last few filters asked for,
/// each with the list version it was built at. A map whose user picked a
/// category asks for many tiles of the same filter; building the index
/// (a few ms for a city's matches, half a second when all 234,908 places
/// match) once per filter and version is what makes that cheap.
package final class FilteredClusterIndexes: Sendable {
    /// Filters kept at most: each index is some 200 bytes per matching store.
    package static let capacity = 8
    private let kept = StateLock<[(key: String, index: FilteredClusterIndex)]>([])

    package init() {}

    /// The index kept under `key` (the list, its version, the filter and
    /// the options), nil when there is none.
    package func index(_ key: String) -> FilteredClusterIndex? {
        kept.withLock { kept in kept.first { $0.key == key }?.index }
    }

    /// Keeps `index` under `key` as the newest, dropping the oldest when full.
    package func keep(_ index: FilteredClusterIndex, _ key: String) {
        kept.withLock { kept in
            kept.removeAll { $0.key == key }
            if kept.count >= Self.capacity { kept.removeFirst() }
            kept.append((key, index))
        }
    }
}

extension Array where Element == Int {
    /// The index of `value` in this ascending array, nil when absent.
    fileprivate func binarySearch(_ value: Int) -> Int? {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < count && self[low] == value ? low : nil
    }
}
