import CarouselEngine
import PropertyBased
import TestSupport
import Testing

/// Properties of the geometry over layouts drawn by swift-property-based's
/// generators: any layout, any offset, any velocity.
@Suite("Engine properties over generated layouts")
struct GeneratedLayoutPropertyTests {
    @Test func anyOffsetHasAFocusedItemInRangeAndEveryReleaseRestsInRange() throws {
        let input = zip(LayoutGen.layout(), Gen.double(in: 0...1), Gen.double(in: 0...1), Gen.double(in: -8...8))
        try LayoutGen.check(input, seed: 0xA11CE) { value, context in
            let (layout, position, start, velocity) = value
            let offset = position * layout.maxOffset
            let item = try #require(layout.focusedItem(at: offset), "\(context)")
            #expect((0..<layout.itemCount).contains(item), "\(context)")
            #expect((0..<layout.dataCount).contains(layout.dataIndex(ofItem: item)), "\(context)")
            let release = try layout.release(at: offset, velocity: velocity, dragStart: start * layout.maxOffset)
            #expect(layout.offsetRange.contains(release.targetOffset), "\(context): \(release)")
            // Index rules rest on an item; `free` and `page` rest anywhere.
            if ![.free, .page].contains(layout.snap) {
                let index = try #require(release.index, "\(context)")
                #expect(release.targetOffset == layout.rest(index), "\(context): \(release)")
            }
        }
    }
}
