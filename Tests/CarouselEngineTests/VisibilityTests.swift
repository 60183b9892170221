import CarouselEngine
import TestSupport
import Testing

@Suite("Visible items")
struct VisibilityTests {
    @Test func visibleItemsMatchAScanOfEveryItemOnRandomLayouts() throws {
        let seed: UInt64 = 0x5EED_0002
        var random = SplitMix64(seed: seed)
        for trial in 0..<400 {
            let viewport = Double.random(in: 50...800, using: &random)
            let layout = try makeLayout(
                viewport: viewport,
                itemLength: .points(Double.random(in: 1...(viewport * 1.5), using: &random)),
                spacing: Bool.random(using: &random) ? 0 : Double.random(in: 0...60, using: &random),
                sectionInset: Double.random(in: 0...40, using: &random),
                alignment: Bool.random(using: &random) ? .leading : .center,
                dataCount: Int.random(in: 1...40, using: &random),
                minScale: Double.random(in: 0...1, using: &random)
            )
            let offset = Double.random(in: -200...(layout.maxOffset + 200), using: &random)
            let expected = (0..<layout.itemCount).compactMap { item -> (Int, Double)? in
                let start = layout.rest(item) + layout.leadingInset
                let overlap = min(start + layout.itemLength, offset + layout.viewport) - max(start, offset)
                return overlap > 0 ? (item, overlap / layout.itemLength) : nil
            }
            let visible = Array(layout.visibleItems(at: offset))
            #expect(visible.map(\.index) == expected.map(\.0), "seed \(seed) trial \(trial) offset \(offset)")
            for (item, (_, fraction)) in zip(visible, expected) {
                #expect(isClose(item.fraction, min(fraction, 1)), "seed \(seed) trial \(trial)")
                #expect(isClose(item.scale, layout.minScale + (1 - layout.minScale) * item.fraction))
            }
        }
    }

    @Test func hugeListComputesOnlyTheWindow() throws {
        let layout = try makeLayout(itemLength: .fraction(0.8), dataCount: 234_908)
        // At rest on item 117 000 both neighbours peek in (the visibleItemsInvalidationHandler article's layout).
        let visible = layout.visibleItems(at: layout.rest(117_000))
        #expect(visible.indices == 116_999..<117_002)
        #expect(visible.count == 3)
        #expect(visible.map(\.index) == [116_999, 117_000, 117_001])
    }

    @Test func loopCopiesReportTheirDataIndex() throws {
        let layout = try makeLayout(itemLength: .points(300), dataCount: 3, loop: true, loopPadding: 2)
        let visible = Array(layout.visibleItems(at: layout.rest(1)))
        #expect(visible.map(\.index) == [0, 1, 2])
        #expect(visible.map(\.dataIndex) == [1, 2, 0])
    }
}
