import Foundation
import GRDB
import Geo

/// Exact k-nearest search, best-first over the tile trees of
/// ``SpatialTiles``: a queue of nodes and tiles ordered by the chord from
/// the origin to their boxes, where a node read puts its children in the
/// queue and a tile read measures its stores by haversine, until the next
/// bound is beyond the k-th store found (or beyond `maxRadius`). Branch
/// and bound (Hjaltason & Samet, "Distance browsing in spatial databases",
/// ACM TODS 1999): the cost follows the tiles around the answer, not the
/// distance to it — a point mid-Pacific reads the same few tiles as one in
/// a city.
///
/// A search of one list starts at that list's root, so it never reads
/// another list's nodes; a search of every list starts at every list's
/// root at once.
///
/// Measured alternatives (234,908 GeoNames places, points uniform over the
/// globe; BENCHMARKS.md): ``NearestSearch`` over the latitude bands widens
/// a circle ring after ring, one seek per band, so a point 2,000 km from
/// its nearest store pays thousands of seeks; the same tiles in SQLite's
/// R*Tree (migrations 0007–0009), searched through its query callback,
/// took a median of 103 µs, 70 % of it in the R*Tree's code.
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

    /// How much the bounds are loosened against rounding: the unit vectors,
    /// the chord and the haversine each carry ~10⁻¹⁶ relative error, so a
    /// store right on a bound could otherwise be judged a hair beyond it
    /// and dropped. A micrometre plus a part in 10⁹ costs no pruning.
    static func loosened(_ meters: Double) -> Double { meters * (1 + 1e-9) + 1e-6 }

    /// The Euclidean distance from `point` to `box`: the chord to its
    /// nearest point, 0 inside.
    @inline(__always)
    static func chord(from point: SIMD3<Double>, to box: SpatialTiles.Box) -> Double {
        let outside = pointwiseMax(pointwiseMax(box.low - point, point - box.high), .zero)
        return (outside * outside).sum().squareRoot()
    }

    /// The great-circle distance of a chord of the unit sphere, in meters.
    static func meters(chord: Double) -> Double {
        2 * Haversine.earthRadiusMeters * asin(min(1, chord / 2))
    }

    /// The chord of a great-circle distance in meters (≤ 2).
    static func chord(meters: Double) -> Double {
        2 * sin(min(.pi, meters / Haversine.earthRadiusMeters) / 2)
    }

    private static let nodeSQL = "SELECT bytes FROM tile_nodes WHERE key = ?"
    private static let rootSQL = "SELECT root, x_min, y_min, z_min, x_max, y_max, z_max FROM tile_trees WHERE list = ?"
    private static let rootsSQL = "SELECT root, x_min, y_min, z_min, x_max, y_max, z_max FROM tile_trees"

    /// The nearest stores' keys and distances, nearest first (ties by key).
    package func run(_ db: Database) throws -> [(store: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        let meter = DistanceFrom(origin)
        let v = SpatialTiles.unitVector(latitude: origin.latitude, longitude: origin.longitude)
        let q = SIMD3(v.x, v.y, v.z)
        // Loosened both ways: the pruning radius up, the chord up.
        let maxChord = Self.chord(meters: Self.loosened(maxRadius)) + 1e-12
        var queue = BoundQueue()

        let roots = try RawStatement.cached(list == nil ? Self.rootsSQL : Self.rootSQL, in: db)
        defer { roots.reset() }
        if let list { roots.bind(list, at: 1) }
        while try roots.step() {
            let box = SpatialTiles.Box(
                low: SIMD3(roots.double(1), roots.double(2), roots.double(3)),
                high: SIMD3(roots.double(4), roots.double(5), roots.double(6)))
            let chord = Self.chord(from: q, to: box)
            if chord <= maxChord { queue.push(Bound(chord: chord, key: roots.int64(0), isTile: false)) }
        }
        roots.reset()

        let read = try RawStatement.cached(Self.nodeSQL, in: db)
        defer { read.reset() }
        var nearest = NearestCandidates(limit: limit)
        // A store of several lists lies in a tile of each: kept once.
        var kept: Set<Int64>? = list == nil ? [] : nil
        // The chord past which nothing can be kept any more.
        var cutoff = maxChord
        while let next = queue.pop() {
            // Bounds come nearest first: none further on holds a store
            // nearer than this one. Equal distances still come in (ties are
            // broken by key), hence strictly beyond.
            if next.chord > cutoff { break }
            read.reset()
            read.bind(next.key, at: 1)
            guard try read.step() else {
                throw CatalogError.database("the tile tree names node \(next.key), which is missing")
            }
            read.withBlob(0) { bytes in
                if next.isTile {
                    SpatialTiles.forEachMember(bytes) { store, latitude, longitude in
                        let distance = meter.meters(toLatitude: latitude, longitude: longitude)
                        guard distance <= maxRadius, nearest.keeps(store: store, distance: distance) else { return }
                        if kept != nil, kept!.insert(store).inserted == false { return }
                        nearest.insert(store: store, distance: distance)
                    }
                } else if let kind = bytes.first {
                    SpatialTiles.Node.forEachChild(bytes) { key, box in
                        let chord = Self.chord(from: q, to: box)
                        if chord <= cutoff {
                            queue.push(Bound(chord: chord, key: key, isTile: kind == SpatialTiles.Node.tiles))
                        }
                    }
                }
            }
            if let worst = nearest.worst {
                cutoff = min(maxChord, Self.chord(meters: Self.loosened(worst.distance)) * (1 + 1e-9) + 1e-12)
            }
        }
        return nearest.sorted()
    }

    /// A node or a tile waiting in the queue, with the chord to its box.
    struct Bound {
        var chord: Double
        var key: Int64
        var isTile: Bool
    }

    /// A binary min-heap of bounds, nearest first.
    struct BoundQueue {
        private var heap: [Bound] = []

        init() { heap.reserveCapacity(256) }

        mutating func push(_ bound: Bound) {
            heap.append(bound)
            heap.siftUpLast { $0.chord < $1.chord }
        }

        mutating func pop() -> Bound? {
            guard !heap.isEmpty else { return nil }
            heap.swapAt(0, heap.count - 1)
            let top = heap.removeLast()
            heap.siftDownFirst { $0.chord < $1.chord }
            return top
        }
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

    /// Whether ``insert(store:distance:)`` would keep this candidate.
    func keeps(store: Int64, distance: Double) -> Bool {
        heap.count < limit || Self.isWorse(heap[0], than: (store, distance))
    }

    private static func isWorse(_ a: (store: Int64, distance: Double), than b: (store: Int64, distance: Double)) -> Bool {
        (a.distance, a.store) > (b.distance, b.store)
    }

    mutating func insert(store: Int64, distance: Double) {
        let candidate = (store: store, distance: distance)
        if heap.count < limit {
            heap.append(candidate)
            heap.siftUpLast(Self.isWorse)
        } else if Self.isWorse(heap[0], than: candidate) {
            heap[0] = candidate
            heap.siftDownFirst(Self.isWorse)
        }
    }

    /// The candidates nearest first, ties by key (``Array/keepNearest(_:by:)``'s order).
    func sorted() -> [(store: Int64, distance: Double)] {
        var found = heap
        found.keepNearest(limit) { ($0.distance, $0.store) }
        return found
    }
}
