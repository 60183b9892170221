import TestSupport
import Testing

@testable import Clustering

@Suite struct KDTreeTests {
    /// Brute force over the same Float-rounded coordinates.
    @Test func withinAndRangeFindExactlyWhatBruteForceFinds() {
        var random = SplitMix64(seed: 7)
        let n = 3_000
        let x = (0..<n).map { _ in Double(random.next() % 10_000) / 10_000 }
        let y = (0..<n).map { _ in Double(random.next() % 10_000) / 10_000 }
        let tree = x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in KDTree(x: x, y: y, nodeSize: 16) } }
        #expect(tree.ids.sorted() == (0..<UInt32(n)).map { $0 })
        for q in 0..<50 {
            let qx = x[q], qy = y[q], r = 0.03
            var found: [Int] = []
            tree.within(x: qx, y: qy, radius: r) { found.append(Int($0)) }
            let expected = (0..<n).filter {
                let dx = Double(Float(x[$0])) - qx, dy = Double(Float(y[$0])) - qy
                return dx * dx + dy * dy <= r * r
            }
            #expect(found.sorted() == expected)
            var inBox: [Int] = []
            tree.range(minX: qx - r, minY: qy - r, maxX: qx + r, maxY: qy + r) { inBox.append(Int($0)) }
            let expectedBox = (0..<n).filter {
                let px = Double(Float(x[$0])), py = Double(Float(y[$0]))
                return px >= qx - r && px <= qx + r && py >= qy - r && py <= qy + r
            }
            #expect(inBox.sorted() == expectedBox)
        }
    }
}
