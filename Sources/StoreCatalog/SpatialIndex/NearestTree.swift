import Foundation

/// An in-memory 3-D k-d tree of points on the unit sphere, for exact
/// nearest-by-great-circle searches without SQLite (``NearestSnapshot``).
///
/// Why 3-D: the straight-line (chord) distance between two points of the
/// unit sphere is `c = 2·sin(θ/2)` for the angle θ between them, which grows
/// with θ over 0…π. So the nearest points by chord are the nearest by
/// great-circle distance, and a plain Euclidean k-d tree answers for the
/// whole globe: no special case at the poles or the antimeridian, which a
/// latitude/longitude tree needs. The haversine formula's `h` is `(c/2)²`
/// exactly; only rounding tells them apart, and ``candidates(near:limit:maxChord:)``
/// widens its circle by a margin far above that rounding, so its caller can
/// order the candidates by the haversine distance itself.
///
/// The layout is kdbush's (mourner/kdbush): one balanced tree in flat
/// arrays, each range split at its middle item on the axes x, y, z in
/// turn, so no node is allocated and a search walks contiguous memory.
package struct NearestTree: Sendable {
    /// Ranges this short are scanned, not split.
    private static let leafSize = 8

    /// The point's item at each tree position.
    private var items: [Int32]
    /// x, y, z of each tree position, interleaved.
    private var coords: [Double]

    package var count: Int { items.count }

    /// Indexes `points` (unit vectors) as items `items[i]`.
    package init(points: [SIMD3<Double>], items: [Int32]) {
        precondition(points.count == items.count)
        self.items = items
        coords = [Double](unsafeUninitializedCapacity: 3 * points.count) { buffer, initialized in
            for (i, point) in points.enumerated() {
                buffer[3 * i] = point.x
                buffer[3 * i + 1] = point.y
                buffer[3 * i + 2] = point.z
            }
            initialized = 3 * points.count
        }
        var sorter = Sorter(items: items, coords: coords)
        sorter.sort(0, points.count, axis: 0)
        self.items = sorter.items
        coords = sorter.coords
    }

    /// The unit vector of a latitude and longitude in degrees.
    package static func point(latitude: Double, longitude: Double) -> SIMD3<Double> {
        let phi = latitude * .pi / 180
        let lambda = longitude * .pi / 180
        return SIMD3(cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The chord of a great-circle distance in meters on the haversine
    /// Earth; nil when the distance reaches the antipode (no bound).
    package static func chord(meters: Double) -> Double? {
        let angle = meters / Haversine.earthRadiusMeters
        return angle >= .pi ? nil : 2 * sin(angle / 2)
    }

    /// Every item whose chord from `origin` is at most the `limit`-th
    /// smallest (or at most `maxChord`, if fewer are that near), widened by
    /// a relative 10⁻⁹ and an absolute 10⁻¹² (6 µm on the Earth): what an
    /// exact answer needs once its caller measures them with the haversine
    /// formula. Computed chords differ from exact ones by a few units in
    /// the last place of 1 (10⁻¹⁵), so no item the haversine order puts
    /// among the first `limit` is missed, ties at the `limit`-th included.
    package func candidates(near origin: SIMD3<Double>, limit: Int, maxChord: Double?) -> [Int32] {
        guard limit > 0, !items.isEmpty else { return [] }
        // Beyond the antipode's chord of 2 nothing is farther.
        let outer = maxChord.map(Self.widened) ?? 3
        return items.withUnsafeBufferPointer { items in
            coords.withUnsafeBufferPointer { coords in
                let walker = Walker(items: items, coords: coords, origin: origin)
                var nearest = Nearest(capacity: limit, squaredBound: outer * outer)
                walker.nearest(0, items.count, axis: 0, cellDistance: 0, offsets: .zero, into: &nearest)
                return nearest.candidates()
            }
        }
    }

    /// A chord with the margin ``candidates(near:limit:maxChord:)`` keeps.
    static func widened(_ chord: Double) -> Double {
        chord * (1 + 1e-9) + 1e-12
    }

    /// The search, over the tree's arrays.
    private struct Walker {
        let items: UnsafeBufferPointer<Int32>
        let coords: UnsafeBufferPointer<Double>
        let origin: SIMD3<Double>

        func squaredDistance(_ position: Int) -> Double {
            let dx = coords[3 * position] - origin.x
            let dy = coords[3 * position + 1] - origin.y
            let dz = coords[3 * position + 2] - origin.z
            return dx * dx + dy * dy + dz * dz
        }

        /// Offers every item of [low, high) within `nearest`'s reach, the
        /// range's cell being `cellDistance` (squared) from the origin,
        /// `offsets` its offset along each axis. The cell's distance, not
        /// just the split plane's, is what prunes (Arya & Mount's
        /// incremental distance): from a point far from every store, an
        /// ocean's, the plane alone let the walk into most of the tree.
        func nearest(
            _ low: Int, _ high: Int, axis: Int, cellDistance: Double, offsets: SIMD3<Double>, into nearest: inout Nearest
        ) {
            if high - low <= NearestTree.leafSize {
                for position in low..<high { nearest.offer(squaredDistance(position), items[position]) }
                return
            }
            let middle = (low + high) >> 1
            // The split's offset from the origin along the axis: the half
            // beyond it is at least this far.
            let offset = origin[axis] - coords[3 * middle + axis]
            let next = axis == 2 ? 0 : axis + 1
            nearest.offer(squaredDistance(middle), items[middle])
            var farOffsets = offsets
            farOffsets[axis] = offset
            let farDistance = cellDistance - offsets[axis] * offsets[axis] + offset * offset
            // The origin's side first: its items bound the far side's search.
            let (near, far) = offset < 0 ? ((low, middle), (middle + 1, high)) : ((middle + 1, high), (low, middle))
            self.nearest(near.0, near.1, axis: next, cellDistance: cellDistance, offsets: offsets, into: &nearest)
            if farDistance <= nearest.reach {
                self.nearest(far.0, far.1, axis: next, cellDistance: farDistance, offsets: farOffsets, into: &nearest)
            }
        }
    }

    /// The `capacity` nearest items offered, in a max-heap of squared
    /// chords, and the near misses: items beyond the heap's top but within
    /// its margin, which may tie with the top once measured exactly. One
    /// walk finds both.
    struct Nearest {
        private var heap: [(squared: Double, item: Int32)] = []
        private var nearMisses: [(squared: Double, item: Int32)] = []
        private let capacity: Int
        private let squaredBound: Double
        /// Items farther (squared) than this can be neither among the
        /// nearest nor a near miss; it only shrinks.
        private(set) var reach: Double

        init(capacity: Int, squaredBound: Double) {
            self.capacity = capacity
            self.squaredBound = squaredBound
            reach = squaredBound
            heap.reserveCapacity(min(capacity, 1 << 12))
        }

        mutating func offer(_ squared: Double, _ item: Int32) {
            guard squared <= reach else { return }
            if heap.count < capacity {
                heap.append((squared, item))
                heap.siftUpLast { $0.squared > $1.squared }
            } else if squared < heap[0].squared {
                nearMisses.append(heap[0])
                heap[0] = (squared, item)
                heap.siftDownFirst { $0.squared > $1.squared }
            } else {
                nearMisses.append((squared, item))
            }
            if heap.count == capacity {
                let widened = NearestTree.widened(heap[0].squared.squareRoot())
                reach = min(squaredBound, widened * widened)
            }
        }

        /// The nearest items and the near misses still within reach.
        func candidates() -> [Int32] {
            var found = heap.map(\.item)
            for miss in nearMisses where miss.squared <= reach { found.append(miss.item) }
            return found
        }
    }

    /// Sorts the arrays into the tree: each range's middle item is its
    /// median on the range's axis (Hoare's quickselect), lower ones before.
    private struct Sorter {
        var items: [Int32]
        var coords: [Double]

        mutating func sort(_ low: Int, _ high: Int, axis: Int) {
            guard high - low > NearestTree.leafSize else { return }
            let middle = (low + high) >> 1
            select(middle, low, high - 1, axis: axis)
            let next = axis == 2 ? 0 : axis + 1
            sort(low, middle, axis: next)
            sort(middle + 1, high, axis: next)
        }

        /// Puts the k-th smallest of [left, right] on `axis` at k.
        private mutating func select(_ k: Int, _ left: Int, _ right: Int, axis: Int) {
            var left = left
            var right = right
            while right > left {
                let pivot = coords[3 * ((left + right) >> 1) + axis]
                var i = left
                var j = right
                while i <= j {
                    while coords[3 * i + axis] < pivot { i += 1 }
                    while coords[3 * j + axis] > pivot { j -= 1 }
                    if i <= j {
                        swap(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if k <= j {
                    right = j
                } else if k >= i {
                    left = i
                } else {
                    return
                }
            }
        }

        private mutating func swap(_ i: Int, _ j: Int) {
            items.swapAt(i, j)
            coords.swapAt(3 * i, 3 * j)
            coords.swapAt(3 * i + 1, 3 * j + 1)
            coords.swapAt(3 * i + 2, 3 * j + 2)
        }
    }
}
