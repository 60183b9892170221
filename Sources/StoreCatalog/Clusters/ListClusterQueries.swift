import Clustering
import Geo

/// The clusters queries over one list's index, answered with list
/// positions; each catalog then reads the stores at those positions. One
/// piece of code for both engines, so that their checks, errors and
/// answers cannot drift apart.
package enum ListClusterQueries {
    /// The index of a list whose points, in list order, are `points`:
    /// supercluster's hierarchy, with the zoom from which each point is in
    /// no cluster.
    package static func build(points: [Coordinate], options: ClusterOptions) throws -> ClusterIndex {
        try ClusterIndex(points: points, options: options).withExpansionZooms()
    }

    /// The markers inside `box` at `zoom`; `selected` (a list position) is
    /// never hidden in a cluster.
    package static func markers(
        _ index: some ClusterHierarchy, list: String, zoom: Double, box: BoundingBox, selected: Int?
    ) throws -> [ClusterMarker] {
        if let selected, !(0..<index.pointCount).contains(selected) {
            throw CatalogError.positionOutOfRange(list: list, position: selected, count: index.pointCount)
        }
        return try ClusterQueries(index).markers(in: box, zoom: zoom, selected: selected)
    }

    /// The list positions of cluster `id`'s stores, `limit` of them from
    /// `offset`.
    package static func leaves(_ index: some ClusterHierarchy, cluster id: Int, limit: Int, offset: Int) throws -> [Int] {
        guard limit >= 1, offset >= 0 else {
            throw CatalogError.invalidArgument(
                "a cluster's leaves need a limit of at least 1 and an offset of at least 0 (got limit \(limit), offset \(offset))")
        }
        return try ClusterQueries(index).leaves(of: id, limit: limit, offset: offset)
    }

    /// The zoom from which the store at `position` is in no cluster.
    package static func unclusterZoom(_ index: some ClusterHierarchy, list: String, position: Int) throws -> Int {
        guard (0..<index.pointCount).contains(position) else {
            throw CatalogError.positionOutOfRange(list: list, position: position, count: index.pointCount)
        }
        return try ClusterQueries(index).unclusterZoom(ofPoint: position)
    }
}
