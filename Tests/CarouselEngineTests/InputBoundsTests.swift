import CarouselEngine
import TestSupport
import Testing

/// Every layout and engine input is bounded before arithmetic can overflow
/// or trap: the exact inputs an outside reliability pass crashed the CLI with
/// (SIGILL) are errors now, and the bounds themselves still work.
@Suite("Layout input bounds")
struct InputBoundsTests {
    @Test("a loop padding of 2⁶² is an error, not an overflow of n + 2k")
    func hugeLoopPaddingIsAnError() {
        // snap --count 44 --offset 0 --velocity 0 --loop --loop-padding 4611686018427387904
        let spec = LayoutSpec(loop: true, loopPadding: 4_611_686_018_427_387_904)
        #expect(throws: LayoutError("loopPadding", "must be a whole number in 1...1000000000000", 4_611_686_018_427_387_904)) {
            try spec.layout(dataCount: 44)
        }
        // focus … --loop --loop-padding 9223372036854775807
        #expect(throws: LayoutError.self) { try LayoutSpec(loop: true, loopPadding: .max).layout(dataCount: 44) }
    }

    @Test("a count of Int.max is an error, looping or not")
    func countOfIntMaxIsAnError() {
        // snap --count 9223372036854775807 --offset 0 --velocity 1 --loop
        #expect(throws: LayoutError("count", "must be a whole number in 0...1000000000000", Int.max)) {
            try LayoutSpec(loop: true).layout(dataCount: .max)
        }
        // snap --count 9223372036854775807 --offset 1e300 --velocity 1
        #expect(throws: LayoutError.self) { try LayoutSpec().layout(dataCount: .max) }
    }

    @Test("a 5e-324-pt viewport is an error, not an inverted range")
    func subnormalViewportIsAnError() {
        // focus --offset=0 --viewport=5e-324 --item-fraction=1
        #expect(throws: LayoutError("viewport", "must be a number of points in 0.001...1000000000", 5e-324)) {
            try LayoutSpec(viewport: 5e-324, itemFraction: 1).layout(dataCount: 44)
        }
        // A fraction that leaves an item shorter than the minimum, too.
        #expect(throws: LayoutError.self) { try LayoutSpec(viewport: 1, itemFraction: 1e-300).layout(dataCount: 3) }
    }

    @Test("lengths past a billion points are errors")
    func hugeLengthsAreErrors() {
        for spec in [
            LayoutSpec(viewport: 1e300), LayoutSpec(itemLength: 1e300), LayoutSpec(spacing: 1e300),
            LayoutSpec(sectionInset: 1e300),
        ] {
            #expect(throws: LayoutError.self) { try spec.layout(dataCount: 3) }
        }
    }

    @Test("the largest counts and offsets snap, focus and list visible items without trapping")
    func extremesWithinTheBoundsWork() throws {
        let max = CarouselLayout.maxCount
        let looping = try LayoutSpec(loop: true, loopPadding: max).layout(dataCount: max)
        #expect(looping.itemCount == 3 * max)
        for offset in [-1e300, 0, 1e300] {
            for velocity in [-CarouselLayout.maxVelocity, 0, CarouselLayout.maxVelocity] {
                let release = try looping.release(at: offset, velocity: velocity, dragStart: offset)
                #expect(release.targetOffset.isFinite)
                #expect((0..<looping.itemCount).contains(try #require(release.index)))
                #expect((0..<max).contains(try #require(release.dataIndex)))
            }
            let visible = looping.visibleItems(at: looping.clampedOffset(offset))
            #expect(!visible.isEmpty)
            #expect(visible.allSatisfy { (0..<looping.itemCount).contains($0.index) })
        }
        // The smallest lengths: the visible range is never inverted.
        let tiny = try LayoutSpec(viewport: CarouselLayout.minLength, itemFraction: 1, spacing: 12).layout(dataCount: 44)
        for offset in stride(from: -1.0, through: 600, by: 0.37) {
            let visible = tiny.visibleItems(at: offset)
            #expect(visible.indices.lowerBound <= visible.indices.upperBound)
        }
    }

    @Test("a velocity past a billion points per ms is an error, so the projection stays finite")
    func hugeVelocityIsAnError() throws {
        let layout = try LayoutSpec(deceleration: Deceleration(rate: 0.9999999999999999)).layout(dataCount: 44)
        #expect(throws: LayoutError.self) { try layout.release(at: 0, velocity: 1e308, dragStart: 0) }
        let release = try layout.release(at: 0, velocity: CarouselLayout.maxVelocity, dragStart: 0)
        #expect(release.projected.isFinite)
    }

    @Test("scrolling to a data index the short way round takes the nearest twin, whatever the padding")
    func nearestTwinMatchesAnExhaustiveSearch() throws {
        var random = SplitMix64(seed: 0x7717)
        for _ in 0..<300 {
            let count = Int.random(in: 1...7, using: &random)
            let padding = Int.random(in: 1...20, using: &random)
            let layout = try LayoutSpec(loop: true, loopPadding: padding).layout(dataCount: count)
            let data = Int.random(in: 0..<count, using: &random)
            let offset = Double.random(in: -500...layout.maxOffset + 500, using: &random)
            // Every twin, earliest first; ties go to the earlier one.
            let twins = (0..<layout.itemCount).filter { layout.dataIndex(ofItem: $0) == data }
            let expected = twins.min { abs(layout.rest($0) - offset) < abs(layout.rest($1) - offset) }!
            #expect(layout.nearestItem(showing: data, to: offset) == expected)
        }
        // With 10¹² copies at each end the answer comes at once.
        let huge = try LayoutSpec(loop: true, loopPadding: CarouselLayout.maxCount).layout(dataCount: 1)
        #expect(huge.nearestItem(showing: 0, to: huge.rest(123_456_789)) == 123_456_789)
    }
}
