import Dispatch
import Foundation

extension KDTree {
    /// kd-sorts the arrays: each range longer than a leaf is partitioned
    /// about its middle position on one axis, and its halves on the other.
    /// Unchecked: it holds pointers into the tree's arrays, and the only
    /// concurrent use (``sortInParallel(left:right:axis:depth:)``) gives
    /// each thread a disjoint range of them.
    struct Sorter: @unchecked Sendable {
        let ids: UnsafeMutablePointer<UInt32>
        let coords: UnsafeMutablePointer<Float>
        let nodeSize: Int

        func sort(left: Int, right: Int, axis: Int) {
            if right - left <= nodeSize { return }
            let middle = (left + right) >> 1
            select(middle, left: left, right: right, axis: axis)
            sort(left: left, right: middle - 1, axis: 1 - axis)
            sort(left: middle + 1, right: right, axis: 1 - axis)
        }

        /// ``sort(left:right:axis:)`` with the halves of the first `depth`
        /// levels sorted at once on other cores. The halves are disjoint
        /// ranges of the arrays, each sorted exactly as one thread would
        /// sort it, so the tree is the same bit for bit; only the wall time
        /// changes: the sort was 29 % of building the 234,908 places'
        /// cluster index, one core's work.
        func sortInParallel(left: Int, right: Int, axis: Int, depth: Int) {
            guard depth > 0, right - left > Self.parallelMinimum else {
                return sort(left: left, right: right, axis: axis)
            }
            let middle = (left + right) >> 1
            select(middle, left: left, right: right, axis: axis)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                if half == 0 {
                    sortInParallel(left: left, right: middle - 1, axis: 1 - axis, depth: depth - 1)
                } else {
                    sortInParallel(left: middle + 1, right: right, axis: 1 - axis, depth: depth - 1)
                }
            }
        }

        /// Below this many items a range is sorted on one thread: handing
        /// it to another costs more than it saves.
        static let parallelMinimum = 32_768

        /// Floyd & Rivest's SELECT (CACM Algorithm 489, 1975): rearranges
        /// `left...right` so that position `k` holds the item it would hold
        /// sorted on `axis`, smaller coordinates before it and larger after.
        /// A range longer than 600 first recurses on a sample around `k`.
        /// The sample bounds use kdbush's arithmetic to the letter, as they
        /// decide the resulting permutation.
        func select(_ k: Int, left: Int, right: Int, axis: Int) {
            var left = left, right = right
            while right > left {
                if right - left > 600 {
                    let n = Double(right - left + 1)
                    let m = Double(k - left + 1)
                    let z = log(n)
                    let s = 0.5 * exp(2 * z / 3)
                    let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                    let lower = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                    let upper = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                    select(k, left: lower, right: upper, axis: axis)
                }
                let t = coords[2 * k + axis]
                var i = left, j = right
                swapItems(left, k)
                if coords[2 * right + axis] > t { swapItems(left, right) }
                while i < j {
                    swapItems(i, j)
                    i += 1
                    j -= 1
                    while coords[2 * i + axis] < t { i += 1 }
                    while coords[2 * j + axis] > t { j -= 1 }
                }
                if coords[2 * left + axis] == t {
                    swapItems(left, j)
                } else {
                    j += 1
                    swapItems(j, right)
                }
                if j <= k { left = j + 1 }
                if k <= j { right = j - 1 }
            }
        }

        @inline(__always)
        private func swapItems(_ i: Int, _ j: Int) {
            let id = ids[i]
            ids[i] = ids[j]
            ids[j] = id
            let x = coords[2 * i], y = coords[2 * i + 1]
            coords[2 * i] = coords[2 * j]
            coords[2 * i + 1] = coords[2 * j + 1]
            coords[2 * j] = x
            coords[2 * j + 1] = y
        }
    }
}
