import Foundation
import GRDB
import Geo

/// Exact k-nearest search, best-first over the tiles of ``SpatialTiles``:
/// SQLite's R*Tree hands the tiles over in the order of the smallest chord
/// from the origin to their boxes (the `carousel_nearest` callback), each
/// tile's stores are measured by haversine, and the search stops at the
/// first tile whose bound is beyond the k-th store found (or beyond
/// `maxRadius`). Branch and bound: the cost follows the tiles around the
/// answer, not the distance to it — a point mid-Pacific reads the same few
/// tiles as one in a city.
///
/// Measured alternatives (234,908 GeoNames places, points uniform over the
/// globe; BENCHMARKS.md): ``NearestSearch`` over the latitude bands widens
/// a circle ring after ring, one seek per band, so a point 2,000 km from
/// its nearest store pays thousands of seeks. See ``SpatialTiles`` for why
/// the tree holds tiles rather than stores.
package struct NearestTileSearch {
    package var origin: Coordinate
    package var limit: Int
    /// The search never looks farther (the `within` radius, else the whole
    /// globe).
    package var maxRadius: Double
    package var list: Int64?

    package init(origin: Coordinate, limit: Int, maxRadius: Double, list: Int64?) {
        self.origin = origin
        self.limit = limit
        self.maxRadius = maxRadius
        self.list = list
    }

    static let callbackName = "carousel_nearest"

    /// How much the bounds are loosened against rounding: the unit vectors,
    /// the chord and the haversine each carry ~10⁻¹⁶ relative error, so a
    /// store right on a bound could otherwise be judged a hair beyond it
    /// and dropped. A micrometre plus a part in 10⁹ costs no pruning.
    static func loosened(_ meters: Double) -> Double { meters * (1 + 1e-9) + 1e-6 }

    /// The Euclidean distance from (x, y, z) to the box `box[0]...box[5]`
    /// (x_min, x_max, y_min, y_max, z_min, z_max): the chord to its nearest
    /// point, 0 inside.
    @inline(__always)
    static func chord(x: Double, y: Double, z: Double, toBox box: UnsafePointer<Double>) -> Double {
        let dx = max(box[0] - x, 0, x - box[1])
        let dy = max(box[2] - y, 0, y - box[3])
        let dz = max(box[4] - z, 0, z - box[5])
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// The great-circle distance of a chord of the unit sphere, in meters.
    static func meters(chord: Double) -> Double {
        2 * Haversine.earthRadiusMeters * asin(min(1, chord / 2))
    }

    /// The chord of a great-circle distance in meters (≤ 2).
    static func chord(meters: Double) -> Double {
        2 * sin(min(.pi, meters / Haversine.earthRadiusMeters) / 2)
    }

    private static let sql = """
        SELECT list, members, x_min, x_max, y_min, y_max, z_min, z_max FROM spatial_tiles
        WHERE id MATCH \(callbackName)(?1, ?2, ?3, ?4, ?5)
        """

    /// The nearest stores' keys and distances, nearest first (ties by key).
    package func run(_ db: Database) throws -> [(store: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        let meter = DistanceFrom(origin)
        let q = SpatialTiles.unitVector(latitude: origin.latitude, longitude: origin.longitude)
        let statement = try RawStatement.cached(Self.sql, in: db)
        defer { statement.reset() }
        statement.bind(q.x, at: 1)
        statement.bind(q.y, at: 2)
        statement.bind(q.z, at: 3)
        // Loosened both ways: the pruning radius up, the chord up.
        statement.bind(Self.chord(meters: Self.loosened(maxRadius)) + 1e-12, at: 4)
        statement.bind(list.map(Double.init) ?? -1, at: 5)

        var nearest = NearestCandidates(limit: limit)
        // A store of several lists lies in a tile of each: measured once.
        var seen: Set<Int64>? = list == nil ? [] : nil
        var box = [Double](repeating: 0, count: 6)
        while try statement.step() {
            for column in 0..<6 { box[column] = statement.double(Int32(column) + 2) }
            let bound = box.withUnsafeBufferPointer { Self.meters(chord: Self.chord(x: q.x, y: q.y, z: q.z, toBox: $0.baseAddress!)) }
            // Tiles come nearest bound first: none further on holds a store
            // nearer than this bound. Equal distances still come in (ties
            // are broken by key), hence strictly beyond.
            if let worst = nearest.worst, bound > Self.loosened(worst.distance) { break }
            // The R*Tree's list dimension is stored in 32-bit floats: keys
            // past 2²⁴ may share a box with a neighbour's.
            if let list, statement.int64(0) != list { continue }
            statement.withBlob(1) { bytes in
                SpatialTiles.forEachMember(bytes) { store, latitude, longitude in
                    let distance = meter.meters(toLatitude: latitude, longitude: longitude)
                    guard distance <= maxRadius else { return }
                    if seen != nil, seen!.insert(store).inserted == false { return }
                    nearest.insert(store: store, distance: distance)
                }
            }
        }
        return nearest.sorted()
    }
}

/// The best `limit` (distance, key) pairs seen so far: a max-heap on
/// (distance, key), so the worst kept is at the root and a better one
/// replaces it in O(log k).
struct NearestCandidates {
    private let limit: Int
    private var heap: [(store: Int64, distance: Double)] = []

    init(limit: Int) {
        self.limit = limit
        heap.reserveCapacity(min(limit, 1_024))
    }

    /// The worst candidate kept, once `limit` are known.
    var worst: (store: Int64, distance: Double)? { heap.count == limit ? heap[0] : nil }

    private static func isWorse(_ a: (store: Int64, distance: Double), than b: (store: Int64, distance: Double)) -> Bool {
        (a.distance, a.store) > (b.distance, b.store)
    }

    mutating func insert(store: Int64, distance: Double) {
        let candidate = (store: store, distance: distance)
        if heap.count < limit {
            heap.append(candidate)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard Self.isWorse(heap[child], than: heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
            return
        }
        guard Self.isWorse(heap[0], than: candidate) else { return }
        heap[0] = candidate
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var worst = parent
            if left < heap.count, Self.isWorse(heap[left], than: heap[worst]) { worst = left }
            if right < heap.count, Self.isWorse(heap[right], than: heap[worst]) { worst = right }
            guard worst != parent else { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }

    /// The candidates nearest first, ties by key (``Array/keepNearest(_:by:)``'s order).
    func sorted() -> [(store: Int64, distance: Double)] {
        var found = heap
        found.keepNearest(limit) { ($0.distance, $0.store) }
        return found
    }
}
