import CarouselEngine
import Testing

/// The snap rules, one rule at a time, on a page of 100 pt.
@Suite("Snap rules")
struct SnapRuleTests {
    /// Leading, w = 90, s = 10: page 100, items 0…9. `fast`: p = x + 99 v.
    func layout(_ snap: SnapRule, viewport: Double = 390) throws -> CarouselLayout {
        try makeLayout(
            viewport: viewport, itemLength: .points(90), spacing: 10, alignment: .leading,
            dataCount: 10, snap: snap, deceleration: .fast)
    }

    @Test func nearestRoundsTheProjection() throws {
        let rule = try layout(.nearest)
        #expect(try rule.release(at: 300, velocity: 0.5, dragStart: 300).index == 3)  // p = 349.5
        #expect(try rule.release(at: 300, velocity: 0.51, dragStart: 300).index == 4)  // p = 350.49
    }

    @Test func directionalCeilsForwardFloorsBackwardRoundsStill() throws {
        let rule = try layout(.directional)
        #expect(try rule.release(at: 300, velocity: 0.01, dragStart: 300).index == 4)  // p = 300.99
        #expect(try rule.release(at: 300, velocity: -0.01, dragStart: 300).index == 2)
        #expect(try rule.release(at: 349, velocity: 0, dragStart: 300).index == 3)
        #expect(try rule.release(at: 350, velocity: 0, dragStart: 300).index == 4)
    }

    @Test func velocityRoundsTheReleaseOffsetTheWayTheFingerWent() throws {
        let rule = try layout(.velocity)
        #expect(try rule.release(at: 310, velocity: 0.001, dragStart: 300).index == 4)
        #expect(try rule.release(at: 390, velocity: -3, dragStart: 300).index == 3, "floor(3.9), however hard")
        #expect(try rule.release(at: 340, velocity: 0, dragStart: 300).index == 3)
        // At rest exactly, rounding error must not push ceil a whole item.
        let odd = try makeLayout(itemLength: .points(0.2), spacing: 0.1, dataCount: 10, snap: .velocity)
        #expect(try odd.release(at: odd.rest(3), velocity: 1, dragStart: 0).index == 3)
    }

    @Test func singleMovesAtMostOneItemFromTheStart() throws {
        let rule = try layout(.single)
        #expect(try rule.release(at: 320, velocity: 20, dragStart: 300).index == 4)
        #expect(try rule.release(at: 280, velocity: -20, dragStart: 300).index == 2)
        #expect(try rule.release(at: 320, velocity: -0.5, dragStart: 300).index == 2, "directional says 2")
        // A drag that crossed two items still lands next to where it began.
        #expect(try rule.release(at: 560, velocity: 1, dragStart: 300).index == 4)
    }

    @Test func freeRestsAtTheClampedProjection() throws {
        let rule = try layout(.free)
        let release = try rule.release(at: 300, velocity: 0.5, dragStart: 300)
        #expect(isClose(release.targetOffset, 349.5))
        #expect(release.index == 3)
        #expect(try rule.release(at: 800, velocity: 5, dragStart: 800).targetOffset == 900)
        #expect(try rule.release(at: 100, velocity: -5, dragStart: 100).targetOffset == 0)
    }

    @Test func pageMovesWholeViewportsAtMostOneFromTheStartPage() throws {
        let rule = try layout(.page, viewport: 200)
        // Start page round(400 / 200) = 2; p = 400 + 990 → page 7, limited to 3.
        let far = try rule.release(at: 400, velocity: 10, dragStart: 400)
        #expect(far.targetOffset == 600)
        #expect(far.index == 6)
        #expect(try rule.release(at: 420, velocity: 0.5, dragStart: 400).targetOffset == 400)  // p = 469.5
        #expect(try rule.release(at: 380, velocity: -1, dragStart: 400).targetOffset == 200)  // p = 281
        // The last page is cut at the last rest.
        #expect(try rule.release(at: 800, velocity: 5, dragStart: 800).targetOffset == 900)
    }

    @Test func targetsAreClampedToTheItems() throws {
        let rule = try layout(.nearest)
        #expect(try rule.release(at: 850, velocity: 30, dragStart: 850).index == 9)
        #expect(try rule.release(at: 50, velocity: -30, dragStart: 50).index == 0)
    }

    @Test func motionDeceleratesWithTheVelocityAndAnimatesAgainstIt() throws {
        let rule = try layout(.nearest)
        #expect(try rule.release(at: 320, velocity: 0.5, dragStart: 300).motion == .decelerate)  // → 400
        #expect(try rule.release(at: 320, velocity: 0.1, dragStart: 300).motion == .animate)  // → 300
        #expect(try rule.release(at: 320, velocity: 0, dragStart: 300).motion == .animate)  // still, must move
        #expect(try rule.release(at: 300, velocity: 0, dragStart: 300).motion == .decelerate)  // already there
    }

    @Test func noneBehaviourDoesNotMove() throws {
        let layout = try LayoutSpec(behavior: ScrollBehavior.none).layout(dataCount: 10)
        let release = try layout.release(at: 312, velocity: 5, dragStart: 312)
        #expect(release.projected == 312 && release.targetOffset == 312 && release.index == 1)
        var scroller = try CarouselScroller(layout: layout, initialIndex: 1)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 200, at: 50)
        #expect(scroller.offset == 312 && scroller.nextFrameTime == nil)
    }
}
