import Foundation

/// A static 2-D KD-tree over 32-bit float coordinates, kd-sorted in place
/// as mourner/kdbush 4 sorts its arrays (supercluster's one dependency).
///
/// The order in which a query reports points is part of supercluster's
/// results: a cluster's centre is summed in that order, and neighbours
/// left unclustered are carried to the next level in it. So the partition
/// (Floyd & Rivest's SELECT, CACM Algorithm 489, with kdbush's sampling
/// threshold of 600) and the depth-first walk (middle item first, then the
/// upper half, then the lower) are kdbush's exactly.
package struct KDTree: Sendable {
    /// The leaf size: ranges this short are scanned, not split.
    package let nodeSize: Int
    /// The item index at each kd-sorted position.
    package private(set) var ids: [UInt32]
    /// x, y of each kd-sorted position, interleaved.
    package private(set) var coords: [Float]

    package var count: Int { ids.count }

    /// Indexes the points (x[i], y[i]), rounded to Float.
    package init(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, nodeSize: Int) {
        let n = x.count
        self.nodeSize = nodeSize
        ids = [UInt32](unsafeUninitializedCapacity: n) { buffer, initialized in
            for i in 0..<n { buffer[i] = UInt32(truncatingIfNeeded: i) }
            initialized = n
        }
        coords = [Float](unsafeUninitializedCapacity: 2 * n) { buffer, initialized in
            for i in 0..<n {
                buffer[2 * i] = Float(x[i])
                buffer[2 * i + 1] = Float(y[i])
            }
            initialized = 2 * n
        }
        let nodeSize = self.nodeSize
        ids.withUnsafeMutableBufferPointer { ids in
            coords.withUnsafeMutableBufferPointer { coords in
                let sorter = Sorter(ids: ids.baseAddress!, coords: coords.baseAddress!, nodeSize: nodeSize)
                if n > 0 { sorter.sortInParallel(left: 0, right: n - 1, axis: 0, depth: 2) }
            }
        }
    }

    /// A tree read back from its arrays (already kd-sorted).
    package init(nodeSize: Int, ids: [UInt32], coords: [Float]) {
        self.nodeSize = nodeSize
        self.ids = ids
        self.coords = coords
    }

    /// Calls `found` with each item inside the box (edges included), in
    /// kdbush's `range` order.
    @inline(__always)
    package func range(minX: Double, minY: Double, maxX: Double, maxY: Double, _ found: (UInt32) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                walk(n) { left, right, axis, visitLeaf in
                    if visitLeaf {
                        for i in left...right {
                            let x = Double(coords[2 * i]), y = Double(coords[2 * i + 1])
                            if x >= minX && x <= maxX && y >= minY && y <= maxY { found(ids[i]) }
                        }
                        return (false, false)
                    }
                    let m = (left + right) >> 1
                    let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
                    if x >= minX && x <= maxX && y >= minY && y <= maxY { found(ids[m]) }
                    return axis == 0 ? (minX <= x, maxX >= x) : (minY <= y, maxY >= y)
                }
            }
        }
    }

    /// Calls `found` with each item within `r` of (qx, qy) (squared distance
    /// computed in doubles), in kdbush's `within` order.
    @inline(__always)
    package func within(x qx: Double, y qy: Double, radius r: Double, _ found: (UInt32) -> Void) {
        let n = ids.count
        guard n > 0 else { return }
        let r2 = r * r
        ids.withUnsafeBufferPointer { ids in
            coords.withUnsafeBufferPointer { coords in
                walk(n) { left, right, axis, visitLeaf in
                    if visitLeaf {
                        for i in left...right {
                            let dx = Double(coords[2 * i]) - qx, dy = Double(coords[2 * i + 1]) - qy
                            if dx * dx + dy * dy <= r2 { found(ids[i]) }
                        }
                        return (false, false)
                    }
                    let m = (left + right) >> 1
                    let x = Double(coords[2 * m]), y = Double(coords[2 * m + 1])
                    let dx = x - qx, dy = y - qy
                    if dx * dx + dy * dy <= r2 { found(ids[m]) }
                    return axis == 0 ? (qx - r <= x, qx + r >= x) : (qy - r <= y, qy + r >= y)
                }
            }
        }
    }

    /// The depth-first walk both queries share: a node is a leaf when it
    /// holds at most `nodeSize + 1` positions; otherwise `visit` reports its
    /// middle item and which halves to enter. The lower half is pushed
    /// first, so the upper one is searched first (kdbush's stack order).
    @inline(__always)
    private func walk(_ n: Int, _ visit: (_ left: Int, _ right: Int, _ axis: Int, _ leaf: Bool) -> (lower: Bool, upper: Bool)) {
        // The tree is at most log2(n) + 1 levels deep and the stack holds at
        // most one pending sibling per level, plus the node in hand.
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * 72) { stack in
            var top = 0
            stack[0] = 0; stack[1] = n - 1; stack[2] = 0
            top = 3
            while top > 0 {
                let axis = stack[top - 1], right = stack[top - 2], left = stack[top - 3]
                top -= 3
                if right - left <= nodeSize {
                    _ = visit(left, right, axis, true)
                    continue
                }
                let m = (left + right) >> 1
                let (lower, upper) = visit(left, right, axis, false)
                if lower {
                    stack[top] = left; stack[top + 1] = m - 1; stack[top + 2] = 1 - axis
                    top += 3
                }
                if upper {
                    stack[top] = m + 1; stack[top + 1] = right; stack[top + 2] = 1 - axis
                    top += 3
                }
            }
        }
    }
}
