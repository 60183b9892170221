import CarouselEngine
import Testing

/// Each article's situation (docs/references.md), with its own numbers,
/// behaving the way the article wanted and not the way its bug did.
@Suite("Article scenarios")
struct ArticleScenarioTests {
    // MARK: the carousel-effect article — three cards of width W/3, line spacing 17, leading, fast.

    /// The carousel-effect article: `cellArea = width/3 + 17`, snap `round(target / cellArea)`.
    let carouselEffectLayout = try! makeLayout(
        viewport: 390, itemLength: .fraction(1.0 / 3), spacing: 17, alignment: .leading,
        dataCount: 25, snap: .nearest, deceleration: .fast
    )

    @Test func snapsTheProjectedTargetToTheNearestCellArea() throws {
        #expect(carouselEffectLayout.page == 147)
        // p = 200 + 0.5 · 0.99 / 0.01 = 249.5; 249.5 / 147 = 1.70 → card 2.
        let forward = try carouselEffectLayout.release(at: 200, velocity: 0.5, dragStart: 147)
        #expect(isClose(forward.projected, 249.5))
        #expect(forward.index == 2)
        #expect(forward.targetOffset == 294)
        #expect(forward.motion == .decelerate)
        // p = 220 → 1.50 → card 1 (round(1.4966)): back onto the card passed.
        let short = try carouselEffectLayout.release(at: 200, velocity: 0.2, dragStart: 147)
        #expect(isClose(short.projected, 219.8))
        #expect(short.index == 1)
        #expect(short.targetOffset == 147)
        #expect(short.motion == .animate, "the target lies behind a forward release")
    }

    @Test func directionComparesTheLastOffsetWithTheCurrentOne() throws {
        var scroller = try CarouselScroller(layout: carouselEffectLayout)
        try scroller.beginDrag(at: 0)
        var directions: [Frame.Direction] = []
        for (t, translation) in [(16.0, 10.0), (32, 30), (48, 30), (64, 12), (80, 12.1)] {
            try scroller.drag(translation: translation, at: t)
            if let due = scroller.nextFrameTime { directions.append(try scroller.frame(at: due).direction) }
        }
        // 30 → 30 does not move, so no frame is due: UIKit does not call scrollViewDidScroll either.
        #expect(directions == [.forward, .forward, .backward, .forward])
        #expect(try scroller.frame(at: 96).direction == .none)
    }

    // MARK: the orthogonal-paging article — one-step paging with a content inset; a centred 0.7 group.

    @Test func oneStepPagingMovesAtMostOneItemPerGesture() throws {
        // isOneStepPaging with contentInset.left 20 (leading, inset 20).
        let layout = try makeLayout(
            viewport: 390, itemLength: .points(300), spacing: 10, sectionInset: 20,
            alignment: .leading, dataCount: 20, snap: .single, deceleration: .fast
        )
        #expect(layout.leadingInset == 20)
        #expect(layout.trailingInset == 70, "so the last card can rest 20 pt from the leading edge")
        var scroller = try CarouselScroller(layout: layout, initialIndex: 5)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 120, at: 100)
        // A violent fling would project ~15 cards ahead; one-step paging allows one.
        let fling = try scroller.release(velocity: 50, at: 100)
        #expect(fling.projected > layout.rest(15))
        #expect(fling.index == 6)
        #expect(fling.targetOffset == layout.rest(6))
        let frames = try scroller.framesUntilSettled()
        #expect(frames.last?.offset == layout.rest(6))
        #expect(frames.last?.isSettled == true)
        // The same backwards from the new card.
        try scroller.beginDrag(at: 2000)
        try scroller.drag(translation: -40, at: 2050)
        #expect(try scroller.release(velocity: -50, at: 2050).index == 5)
    }

    @Test func centredGroupOfSevenTenthsPeeksEquallyOnBothSides() throws {
        let layout = try makeLayout(
            viewport: 390, itemLength: .fraction(0.7), spacing: 12, alignment: .center,
            dataCount: 6, snap: .single
        )
        #expect(layout.itemLength == 273)
        #expect(layout.leadingInset == 58.5, "(390 − 273) / 2 centres the first group")
        let visible = Array(layout.visibleItems(at: layout.rest(1)))
        #expect(visible.map(\.index) == [0, 1, 2])
        #expect(visible[1].fraction == 1)
        #expect(isClose(visible[0].fraction, visible[2].fraction), "\(visible)")
        #expect(isClose(visible[0].fraction, 46.5 / 273))
    }

    // MARK: the visibleItemsInvalidationHandler article — peeking neighbours: focus is the centred card, not visibleItems.last.

    let visibleItemsLayout = try! makeLayout(
        viewport: 390, itemLength: .fraction(0.8), spacing: 12, alignment: .center, dataCount: 8
    )

    @Test func focusIsTheCentredCardNotTheLastVisibleOne() throws {
        for item in 0..<7 {
            let visible = visibleItemsLayout.visibleItems(at: visibleItemsLayout.rest(item))
            #expect(visible.last?.index == item + 1, "the next card peeks in")
            #expect(visibleItemsLayout.focusedItem(at: visibleItemsLayout.rest(item)) == item, "item \(item)")
        }
        // Halfway between cards 2 and 3 (page 324): 2.5 rounds away from zero.
        #expect(visibleItemsLayout.focusedItem(at: 2.5 * 324 - 0.01) == 2)
        #expect(visibleItemsLayout.focusedItem(at: 2.5 * 324) == 3)
        // The last card is focused at the last offset, as visibleItems.last never managed.
        #expect(visibleItemsLayout.focusedItem(at: visibleItemsLayout.maxOffset) == 7)
        #expect(visibleItemsLayout.visibleItems(at: visibleItemsLayout.maxOffset).last?.index == 7)
    }

    @Test func scaleIsSevenTenthsPlusThreeTenthsOfTheVisibleShare() throws {
        let visible = Array(visibleItemsLayout.visibleItems(at: 0))
        #expect(visible.map(\.index) == [0, 1])
        #expect(visible[0].fraction == 1 && visible[0].scale == 1)
        // Card 1 spans [39 + 324, 39 + 324 + 312]: 27 of its 312 pt show.
        #expect(isClose(visible[1].fraction, 27.0 / 312))
        #expect(isClose(visible[1].scale, 0.7 + 0.3 * 27.0 / 312))
    }

    // MARK: the infinite-banner article — an infinite banner of 5 cards, spacing 8, 2 copies each end.

    /// The infinite-banner article: cells `W − 4·8` wide, spacing 8, `2 + 5 + 2` cells, start at cell 2.
    let infiniteBannerLayout = try! makeLayout(
        viewport: 390, itemLength: .points(390 - 32), spacing: 8, alignment: .center,
        dataCount: 5, loop: true, loopPadding: 2, snap: .velocity, deceleration: .normal
    )

    @Test func startsOnTheFirstRealCellOfNinePlusCopies() throws {
        #expect(infiniteBannerLayout.itemCount == 9)
        #expect((0..<9).map(infiniteBannerLayout.dataIndex(ofItem:)) == [3, 4, 0, 1, 2, 3, 4, 0, 1])
        let scroller = try CarouselScroller(layout: infiniteBannerLayout)
        #expect(scroller.offset == infiniteBannerLayout.rest(2))
        #expect(scroller.focusedItem == 2 && scroller.focusedDataIndex == 0)
    }

    @Test func jumpsForwardPastTheEndWithoutChangingTheData() throws {
        var scroller = try CarouselScroller(layout: infiniteBannerLayout, initialIndex: 4)  // item 6
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 400, at: 100)  // 2196 + 400 = 2596 > rest(7) = 2562
        let frame = try scroller.frame(at: 100)
        let jump = try #require(frame.jump)
        #expect(jump.from == 2596 && jump.to == 2596 - 5 * 366)
        #expect(frame.offset == 766)
        #expect(frame.dataIndex == 0 && infiniteBannerLayout.focusedDataIndex(at: jump.from) == 0)
        #expect(frame.direction == .forward, "the jump itself is not a movement")
        // The drag carries on from the twin.
        try scroller.drag(translation: 410, at: 116)
        #expect(try scroller.frame(at: 116).offset == 776)
    }

    @Test func jumpsBackwardBelowThePaddingWithoutChangingTheData() throws {
        var scroller = try CarouselScroller(layout: infiniteBannerLayout)  // item 2, offset 732
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: -400, at: 100)  // 332 < rest(1) = 366
        let frame = try scroller.frame(at: 100)
        #expect(frame.jump == Frame.Jump(from: 332, to: 332 + 1830))
        #expect(frame.dataIndex == 4 && infiniteBannerLayout.focusedDataIndex(at: 332) == 4)
        #expect(frame.direction == .backward)
    }

    @Test func motionInFlightShiftsWithTheJump() throws {
        let nearest = try makeLayout(
            viewport: 390, itemLength: .points(358), spacing: 8, alignment: .center,
            dataCount: 5, loop: true, snap: .nearest, deceleration: .normal
        )
        var scroller = try CarouselScroller(layout: nearest, initialIndex: 4)  // item 6
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 304, at: 100)  // 2500
        // p = 2500 + 2 · 499 = 3498 → item 10, clamped to the last, 8 (data 1).
        let release = try scroller.release(velocity: 2, at: 100)
        #expect(release.index == 8 && release.dataIndex == 1)
        let frames = try scroller.framesUntilSettled()
        let jumps = frames.compactMap(\.jump)
        #expect(jumps.count == 1)
        #expect(scroller.motion == nil)
        // Shifted by −5 pages: item 3, showing the same data 1, exactly at rest.
        #expect(frames.last?.offset == nearest.rest(3))
        #expect(frames.last?.dataIndex == 1)
        // Every frame moves forward: the jump is silent.
        #expect(frames.dropLast().allSatisfy { $0.direction == .forward })
    }

    // MARK: the reverse-snap article — vertical 540-pt cells, half-cell threshold, no stutter.

    let reverseSnapLayout = try! makeLayout(
        axis: .vertical, viewport: 540, itemLength: .points(540), spacing: 0, alignment: .leading,
        dataCount: 30, snap: .nearest, deceleration: .fast
    )

    @Test func halfCellThresholdDecidesTheCell() throws {
        #expect(reverseSnapLayout.axis == .vertical)
        // Release still (v = 0) below and above half a cell past cell 3.
        #expect(try reverseSnapLayout.release(at: 1620 + 269, velocity: 0, dragStart: 1620).index == 3)
        #expect(try reverseSnapLayout.release(at: 1620 + 270, velocity: 0, dragStart: 1620).index == 4)
    }

    @Test func shortDragBackAnimatesToTheCellItLeft() throws {
        var scroller = try CarouselScroller(layout: reverseSnapLayout, initialIndex: 3)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: -100, at: 100)  // 1520, moving up
        // p = 1520 − 29.7 = 1490.3 → cell 3, which lies against the velocity.
        let release = try scroller.release(velocity: -0.3, at: 100)
        #expect(release.index == 3 && release.targetOffset == 1620)
        #expect(release.motion == .animate)
        try expectNoStutter(&scroller, from: 1520, to: 1620, endingBy: 100 + 300)
    }

    @Test func reverseFlingAnimatesToTheCellAhead() throws {
        var scroller = try CarouselScroller(layout: reverseSnapLayout, initialIndex: 3)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 300, at: 100)  // 1920, past half a cell
        // A weak fling back: p = 1910.1 is still past half, so cell 4, ahead.
        let release = try scroller.release(velocity: -0.1, at: 100)
        #expect(release.index == 4 && release.targetOffset == 2160)
        #expect(release.motion == .animate)
        try expectNoStutter(&scroller, from: 1920, to: 2160, endingBy: 100 + 300)
    }

    /// The Instagram-paging article's fix: the content stops where the finger left it and moves
    /// only toward the target, monotonically, landing on it exactly when the
    /// animation ends.
    private func expectNoStutter(
        _ scroller: inout CarouselScroller, from start: Double, to target: Double, endingBy end: Double
    ) throws {
        let frames = try scroller.framesUntilSettled()
        let offsets = [start] + frames.map(\.offset)
        let sign: Double = target > start ? 1 : -1
        #expect(zip(offsets, offsets.dropFirst()).allSatisfy { ($1 - $0) * sign >= 0 }, "\(offsets)")
        #expect(frames.last?.offset == target)
        #expect(frames.last?.isSettled == true)
        #expect((frames.last?.time ?? .infinity) < end + scroller.layout.frameMs)
    }
}
