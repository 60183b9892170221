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

extension GeneratedLayoutPropertyTests {
    @Test func aLoopJumpLandsInsideThePaddingOnATwinShowingTheSameStore() throws {
        let input = zip(LayoutGen.layout(loop: true), Gen.double(in: 0...1))
        try LayoutGen.check(input, seed: 0x100F) { value, context in
            let (layout, position) = value
            let loop = try #require(layout.loop, "\(context)")
            let offset = position * layout.maxOffset
            let band = layout.rest(loop.padding - 1)...layout.rest(loop.dataCount + loop.padding)
            guard let target = layout.loopJumpTarget(for: offset) else {
                #expect(band.contains(offset), "\(context): \(offset) outside \(band) but no jump")
                return
            }
            #expect(!band.contains(offset), "\(context): \(offset) inside \(band) yet jumped")
            // Within one ulp-scaled tolerance: the jump is a whole number of periods.
            let tolerance = 1e-9 * max(1, layout.maxOffset)
            #expect(band.lowerBound - tolerance <= target && target <= band.upperBound + tolerance, "\(context): \(target)")
            let periods = (target - offset) / (Double(loop.dataCount) * layout.page)
            #expect(abs(periods - periods.rounded()) < 1e-9, "\(context): \(periods) periods")
            #expect(layout.focusedDataIndex(at: target) == layout.focusedDataIndex(at: offset), "\(context)")
        }
    }

    @Test func aCarouselWithEndsNeverJumps() throws {
        let input = zip(LayoutGen.layout(loop: false), Gen.double(in: -2...3))
        LayoutGen.check(input, seed: 0xE7D5) { value, context in
            let (layout, position) = value
            #expect(layout.loopJumpTarget(for: position * layout.maxOffset) == nil, "\(context)")
        }
        let looping = try CarouselLayout(viewport: 390, itemLength: .points(300), dataCount: 3, loop: true)
        #expect(looping.loopJumpTarget(for: .nan) == nil)
        #expect(looping.loopJumpTarget(for: .infinity) == nil)
    }
}

/// The loop jump as a scroll view's delegate sees it, on the infinite-banner
/// article's shape: 5 cards, 2 copies at each end, page 312.
@Suite struct LoopJumpTargetTests {
    let layout: CarouselLayout

    init() throws {
        layout = try CarouselLayout(
            viewport: 390, itemLength: .points(300), spacing: 12, alignment: .center, dataCount: 5, loop: true)
    }

    @Test func offsetsInsideThePaddingStayPut() {
        for item in 1...7 {
            #expect(layout.loopJumpTarget(for: layout.rest(item)) == nil, "item \(item)")
        }
    }

    @Test func pastTheLastRealCardJumpsBackOnePeriodToTheTwin() throws {
        // Past rest(n + k) = rest(7) = 2184: back by 5 · 312 = 1560.
        let target = try #require(layout.loopJumpTarget(for: 2184.5))
        #expect(target == 624.5)
        #expect(layout.focusedDataIndex(at: target) == layout.focusedDataIndex(at: 2184.5))
    }

    @Test func beforeTheFirstRealCardJumpsForwardOnePeriod() throws {
        // Below rest(k − 1) = rest(1) = 312: forward by 1560.
        let target = try #require(layout.loopJumpTarget(for: 100))
        #expect(target == 1660)
        #expect(layout.focusedDataIndex(at: target) == layout.focusedDataIndex(at: 100))
    }
}
