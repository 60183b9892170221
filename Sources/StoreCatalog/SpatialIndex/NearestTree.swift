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
        let widen = { (chord: Double) in chord * (1 + 1e-9) + 1e-12 }
        // Beyond the antipode's chord of 2 nothing is farther.
        let outer = maxChord.map(widen) ?? 3
        return items.withUnsafeBufferPointer { items in
            coords.withUnsafeBufferPointer { coords in
                let walker = Walker(items: items, coords: coords, origin: origin)
                var nearest = BoundedMaxHeap(capacity: limit, bound: outer * outer)
                walker.nearest(0, items.count, axis: 0, into: &nearest)
                let radius = nearest.isFull ? min(outer, widen(nearest.top.squareRoot())) : outer
                var found: [Int32] = []
                found.reserveCapacity(limit + 4)
                walker.within(radius * radius, 0, items.count, axis: 0, into: &found)
                return found
            }
        }
    }

    /// The searches, over the tree's arrays.
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

        /// The split's offset from the origin along `axis`: the half beyond
        /// it is at least this far.
        func offset(_ position: Int, axis: Int) -> Double {
            origin[axis] - coords[3 * position + axis]
        }

        /// The nearest items of [low, high), kept in `heap`.
        func nearest(_ low: Int, _ high: Int, axis: Int, into heap: inout BoundedMaxHeap) {
            if high - low <= NearestTree.leafSize {
                for position in low..<high { heap.offer(squaredDistance(position)) }
                return
            }
            let middle = (low + high) >> 1
            let offset = offset(middle, axis: axis)
            let next = axis == 2 ? 0 : axis + 1
            heap.offer(squaredDistance(middle))
            // The origin's side first: its points bound the far side's search.
            if offset < 0 {
                nearest(low, middle, axis: next, into: &heap)
                if offset * offset <= heap.limit { nearest(middle + 1, high, axis: next, into: &heap) }
            } else {
                nearest(middle + 1, high, axis: next, into: &heap)
                if offset * offset <= heap.limit { nearest(low, middle, axis: next, into: &heap) }
            }
        }

        /// Every item of [low, high) within √`squaredRadius`, appended to `found`.
        func within(_ squaredRadius: Double, _ low: Int, _ high: Int, axis: Int, into found: inout [Int32]) {
            if high - low <= NearestTree.leafSize {
                for position in low..<high where squaredDistance(position) <= squaredRadius {
                    found.append(items[position])
                }
                return
            }
            let middle = (low + high) >> 1
            let offset = offset(middle, axis: axis)
            let next = axis == 2 ? 0 : axis + 1
            if squaredDistance(middle) <= squaredRadius { found.append(items[middle]) }
            if offset < 0 || offset * offset <= squaredRadius { within(squaredRadius, low, middle, axis: next, into: &found) }
            if offset > 0 || offset * offset <= squaredRadius { within(squaredRadius, middle + 1, high, axis: next, into: &found) }
        }
    }

    /// The `capacity` smallest squared distances offered, largest on top:
    /// only the distances, since ``candidates(near:limit:maxChord:)``
    /// collects the items in a second walk.
    struct BoundedMaxHeap {
        private var values: [Double] = []
        private let capacity: Int
        private let bound: Double

        init(capacity: Int, bound: Double) {
            self.capacity = capacity
            self.bound = bound
            values.reserveCapacity(min(capacity, 1 << 12))
        }

        var isFull: Bool { values.count == capacity }
        var top: Double { values[0] }
        /// Nothing farther can enter.
        var limit: Double { isFull ? min(values[0], bound) : bound }

        mutating func offer(_ value: Double) {
            guard value <= limit else { return }
            if !isFull {
                values.append(value)
                var child = values.count - 1
                while child > 0 {
                    let parent = (child - 1) / 2
                    guard values[parent] < values[child] else { break }
                    values.swapAt(parent, child)
                    child = parent
                }
            } else {
                guard value < values[0] else { return }
                values[0] = value
                var parent = 0
                while true {
                    var largest = parent
                    let left = 2 * parent + 1
                    if left < values.count, values[left] > values[largest] { largest = left }
                    if left + 1 < values.count, values[left + 1] > values[largest] { largest = left + 1 }
                    guard largest != parent else { break }
                    values.swapAt(parent, largest)
                    parent = largest
                }
            }
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
