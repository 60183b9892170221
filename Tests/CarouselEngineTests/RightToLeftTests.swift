import CarouselEngine
import Foundation
import PropertyBased
import TestSupport
import Testing

/// Right-to-left layouts (issue 44): card 0 at the right edge, offsets as a
/// flipped `UICollectionViewFlowLayout` reports them, and every answer the
/// left-to-right one seen in a mirror.
@Suite("Right-to-left layouts")
struct RightToLeftTests {
    /// The groupPagingCentered carousel of five 300-pt cards in a 390-pt
    /// viewport: page 312, maxOffset 4 · 312 = 1248.
    private func layout(_ direction: LayoutDirection, loop: Bool = false) throws -> CarouselLayout {
        try CarouselLayout(
            layoutDirection: direction, viewport: 390, itemLength: .points(300), spacing: 12,
            alignment: .center, dataCount: 5, loop: loop, snap: .single)
    }

    @Test func cardZeroRestsAtTheRightEdgeAndNextIsIndexPlusOne() throws {
        let rtl = try layout(.rightToLeft)
        #expect(rtl.maxOffset == 1248)
        #expect(rtl.rest(0) == 1248 && rtl.rest(1) == 936 && rtl.rest(4) == 0)
        #expect(rtl.focusedItem(at: 1248) == 0 && rtl.focusedItem(at: 936) == 1 && rtl.focusedItem(at: 0) == 4)
        // The carousel starts on card 0, at the right end of the content.
        let scroller = try CarouselScroller(layout: rtl)
        #expect(scroller.offset == 1248 && scroller.focusedDataIndex == 0)
        // Card 0 is centred, 45 pt from the left; card 1 peeks 33 pt in on
        // the LEFT (at 45 − 312 = −267), where the next card lies.
        let visible = rtl.visibleItems(at: 1248)
        #expect(visible.map(\.index) == [0, 1])
        #expect(visible.map(\.position) == [45, -267])
        // At card 1 (offset 936), card 0 peeks in on the RIGHT and card 2 on the left.
        let peeking = rtl.visibleItems(at: 936)
        #expect(peeking.map(\.index) == [0, 1, 2])
        #expect(peeking.map(\.position) == [357, 45, -267])
    }

    @Test func aDragTowardTheLeftGoesToTheNextCard() throws {
        var scroller = try CarouselScroller(layout: try layout(.rightToLeft))
        try scroller.beginDrag(at: 0)
        // The finger moves right, the content offset shrinks: toward card 1.
        try scroller.drag(translation: -200, at: 100)
        #expect(scroller.offset == 1048)
        let release = try scroller.release(velocity: -0.5, at: 150)
        #expect(release.index == 1 && release.targetOffset == 936)
        var last: Frame?
        while let due = scroller.nextFrameTime { last = try scroller.frame(at: due) }
        #expect(last?.offset == 936 && last?.dataIndex == 1 && last?.isSettled == true)
        let command = try scroller.scroll(toItem: 3, animated: false, at: 5000)
        #expect(command.targetOffset == 312)
        let frame = try scroller.frame(at: 5000)
        #expect(frame.direction == .forward && frame.dataIndex == 3)
    }

    @Test func aLoopJumpIsMirrored() throws {
        let ltr = try layout(.leftToRight, loop: true), rtl = try layout(.rightToLeft, loop: true)
        // Five stores, two copies each side: items 0...8, maxOffset 8 · 312.
        #expect(rtl.maxOffset == 2496)
        // Past rest(n + k) = rest(7) in left-to-right jumps back one period;
        // the mirrored offset jumps the other way to the mirrored twin.
        let ltrTarget = try #require(ltr.loopJumpTarget(for: 7.5 * 312))
        let rtlTarget = try #require(rtl.loopJumpTarget(for: 2496 - 7.5 * 312))
        #expect(ltrTarget == 2.5 * 312 && rtlTarget == 2496 - 2.5 * 312)
        #expect(rtl.focusedDataIndex(at: rtlTarget) == ltr.focusedDataIndex(at: ltrTarget))
    }

    @Test func aVerticalCarouselIsNotMirrored() throws {
        let vertical = try CarouselLayout(
            axis: .vertical, layoutDirection: .rightToLeft, viewport: 844, itemLength: .points(540), dataCount: 5)
        #expect(!vertical.isMirrored && vertical.rest(1) == 540 && vertical.logicalOffset(540) == 540)
        #expect(vertical.engineOffset(fromPlatform: -3, .web) == -3)
    }

    @Test func platformOffsetsConvertToTheEngineAndBack() throws {
        let rtl = try layout(.rightToLeft), ltr = try layout(.leftToRight)
        // Card 1 at rest, as each platform reports it.
        #expect(rtl.engineOffset(fromPlatform: 936, .uiKit) == 936)
        #expect(rtl.engineOffset(fromPlatform: 312, .compose) == 936)  // ScrollState.value from the start edge
        #expect(rtl.engineOffset(fromPlatform: -312, .web) == 936)  // scrollLeft, negative toward the end
        #expect(rtl.engineOffset(fromPlatform: 0, .web) == 1248 && rtl.engineOffset(fromPlatform: 0, .compose) == 1248)
        #expect(rtl.platformOffset(fromEngine: 936, .web) == -312)
        #expect(rtl.platformOffset(fromEngine: 936, .compose) == 312)
        #expect(rtl.platformOffset(fromEngine: 936, .uiKit) == 936)
        // The logical offset is Compose's: the distance from the start edge.
        #expect(rtl.logicalOffset(936) == 312 && rtl.logicalDelta(2) == -2)
        // A Compose fling toward later items is positive; the engine's is negative.
        #expect(rtl.engineVelocity(fromPlatform: 1.5, .compose) == -1.5)
        #expect(rtl.engineVelocity(fromPlatform: 1.5, .web) == 1.5 && rtl.engineVelocity(fromPlatform: 1.5, .uiKit) == 1.5)
        for platform in PlatformOffsetConvention.allCases {
            #expect(ltr.engineOffset(fromPlatform: 312, platform) == 312)
            #expect(ltr.platformOffset(fromEngine: 312, platform) == 312)
            #expect(ltr.engineVelocity(fromPlatform: 1.5, platform) == 1.5)
            // Round trips, over offsets across the content.
            for offset in stride(from: -100.0, through: 1400, by: 37.5) {
                let there = rtl.platformOffset(fromEngine: offset, platform)
                #expect(rtl.engineOffset(fromPlatform: there, platform) == offset, "\(platform) \(offset)")
            }
        }
    }

    @Test func theSpecDecodesTheDirectionAndNamesTheAllowedValues() throws {
        func decode(_ json: String) throws -> LayoutSpec {
            try JSONDecoder().decode(LayoutSpec.self, from: Data(json.utf8))
        }
        let spec = try decode(#"{"viewport": 390, "layoutDirection": "rightToLeft"}"#)
        #expect(spec.layoutDirection == .rightToLeft)
        #expect(try spec.layout(dataCount: 3).layoutDirection == .rightToLeft)
        #expect(try LayoutSpec().layout(dataCount: 3).layoutDirection == .leftToRight)
        #expect(try decode(#"{"layoutDirection": "leftToRight"}"#).layoutDirection == .leftToRight)
        #expect(try JSONDecoder().decode(LayoutSpec.self, from: JSONEncoder().encode(spec)) == spec)
        #expect(LayoutSpec.keys.contains("layoutDirection"))
        #expect {
            try decode(#"{"layoutDirection": "rtl"}"#)
        } throws: { error in
            "\(error)".contains("layoutDirection must be leftToRight or rightToLeft (got 'rtl')")
        }
        #expect(throws: DecodingError.self) { try decode(#"{"layoutDirection": 1}"#) }
    }
}

// MARK: - Mirror properties

/// Generated layouts with every preset and deceleration in play: the
/// layout as drawn (its snap rule and alignment, a deceleration rate in
/// 0.9...0.999), or with a ``ScrollBehavior`` preset's alignment, snap rule,
/// deceleration and scrolling (`none` included).
enum MirrorGen {
    static func layout() -> Generator<CarouselLayout, some SendableSequenceType> {
        zip(LayoutGen.layout(), Gen<ScrollBehavior>.case, Gen.double(in: 0.9...0.999), Gen.bool())
            .compactMap { base, behavior, rate, usePreset in
                try? CarouselLayout(
                    viewport: base.viewport, itemLength: .points(base.itemLength), spacing: base.spacing,
                    sectionInset: base.sectionInset, alignment: usePreset ? behavior.alignment : base.alignment,
                    dataCount: base.dataCount, loop: base.loop != nil, loopPadding: base.loop?.padding ?? 2,
                    snap: usePreset ? behavior.snap : base.snap,
                    deceleration: usePreset ? behavior.deceleration : try Deceleration(rate: rate),
                    isScrollEnabled: usePreset ? behavior.isScrollEnabled : true)
            }
    }
}

/// The right-to-left twin of a generated layout: every setting the same.
func rightToLeftTwin(of layout: CarouselLayout) throws -> CarouselLayout {
    try CarouselLayout(
        axis: layout.axis, layoutDirection: .rightToLeft, viewport: layout.viewport,
        itemLength: .points(layout.itemLength), spacing: layout.spacing, sectionInset: layout.sectionInset,
        alignment: layout.alignment, dataCount: layout.dataCount, loop: layout.loop != nil,
        loopPadding: layout.loop?.padding ?? 2, snap: layout.snap, deceleration: layout.deceleration,
        isScrollEnabled: layout.isScrollEnabled, minScale: layout.minScale, animationMs: layout.animationMs,
        frameMs: layout.frameMs)
}

/// One step of a scroll script, drawn at random and played on both twins.
struct GestureStep: Sendable, CustomStringConvertible {
    enum Kind: Int, CaseIterable, Sendable { case beginDrag, drag, release, setOffset, scrollTo, wait }
    let kind: Kind
    /// In −1...1: the drag's share of two viewports, the release velocity in
    /// quarters of 4 pt/ms, or whether a scroll animates (> 0).
    let amount: Double
    /// In 0...1: the offset of a raw report (of −0.1…1.1 of the content) or
    /// the store scrolled to.
    let place: Double
    /// The ms until the next step.
    let gap: Double

    var description: String { "\(kind)(\(amount), \(place)) +\(gap)" }

    static let gen = zip(Gen.int(in: 0...5), Gen.double(in: -1...1), Gen.double(in: 0...1), Gen.double(in: 0...600))
        .map { GestureStep(kind: Kind(rawValue: $0) ?? .wait, amount: $1, place: $2, gap: $3) }
}

/// What one run of a script shows: every frame, and the answers of releases
/// and scrolls, for the twin runs to be compared.
private struct Run {
    var frames: [Frame] = []
    var visible: [[VisibleItems.Item]] = []
    var releases: [Release] = []
    var commands: [ScrollCommand] = []
    var errors: [String] = []
}

/// Plays `steps` on `layout`; `mirror` turns the script's offsets, drags and
/// velocities (drawn in right-to-left terms) into this run's.
private func play(_ steps: [GestureStep], on layout: CarouselLayout, mirrored: Bool) throws -> Run {
    let m = layout.maxOffset
    var scroller = try CarouselScroller(layout: layout)
    var run = Run()
    var t = 0.0
    func sample(until end: Double) throws {
        var frames = 0
        while let due = scroller.nextFrameTime, due <= end, frames < 4000 {
            run.frames.append(try scroller.frame(at: due))
            run.visible.append(Array(scroller.visibleItems))
            frames += 1
        }
    }
    for step in steps {
        switch step.kind {
        case .beginDrag:
            try scroller.beginDrag(at: t)
        case .drag:
            let translation = step.amount * 2 * layout.viewport
            do {
                try scroller.drag(translation: mirrored ? -translation : translation, at: t)
            } catch { run.errors.append("\(error)") }
        case .release:
            let velocity = step.amount * 4
            run.releases.append(try scroller.release(velocity: mirrored ? -velocity : velocity, at: t))
        case .setOffset:
            // The right-to-left report r; its left-to-right mirror m − r.
            let reported = (step.place * 1.2 - 0.1) * m
            try scroller.setOffset(mirrored ? m - reported : reported, at: t)
        case .scrollTo:
            let index = min(Int(step.place * Double(layout.dataCount)), layout.dataCount - 1)
            run.commands.append(try scroller.scroll(toItem: index, animated: step.amount > 0, at: t))
        case .wait:
            break
        }
        t += step.gap
        try sample(until: t)
    }
    try sample(until: .infinity)
    return run
}

extension RightToLeftTests {
    /// The layout's own answers: focus, release, visibility and loop jumps at
    /// any offset, velocity and drag start, right-to-left against the
    /// mirrored left-to-right question.
    @Test func everyLayoutAnswerIsTheLeftToRightOneMirrored() throws {
        let input = zip(
            MirrorGen.layout(), Gen.double(in: -0.2...1.2), Gen.double(in: 0...1), Gen.double(in: -8...8))
        try LayoutGen.check(input, seed: 0x47_4C, trials: 1000) { value, context in
            let (ltr, position, start, velocity) = value
            let rtl = try rightToLeftTwin(of: ltr)
            let m = rtl.maxOffset
            #expect(m == ltr.maxOffset && rtl.contentLength == ltr.contentLength, "\(context)")
            let tolerance = 1e-9 * max(1, m)
            func mirrored(_ a: Double, _ b: Double) -> Bool { abs(a - (m - b)) <= tolerance }
            // The right-to-left question, and its mirror.
            let r = position * m, rStart = start * m
            let x = m - r, xStart = m - rStart
            #expect(rtl.focusedItem(at: r) == ltr.focusedItem(at: x), "\(context)")
            for item in [0, ltr.itemCount / 2, ltr.itemCount - 1] {
                #expect(mirrored(rtl.rest(item), ltr.rest(item)), "\(context): rest \(item)")
            }
            let a = try rtl.release(at: r, velocity: -velocity, dragStart: rStart)
            let b = try ltr.release(at: x, velocity: velocity, dragStart: xStart)
            #expect(a.index == b.index && a.dataIndex == b.dataIndex && a.motion == b.motion, "\(context): \(a) \(b)")
            #expect(mirrored(a.targetOffset, b.targetOffset) && mirrored(a.projected, b.projected), "\(context)")
            let seen = Array(rtl.visibleItems(at: r)), expected = Array(ltr.visibleItems(at: x))
            #expect(seen.map(\.index) == expected.map(\.index), "\(context)")
            #expect(seen.map(\.dataIndex) == expected.map(\.dataIndex), "\(context)")
            #expect(seen.map(\.fraction) == expected.map(\.fraction), "\(context)")
            #expect(seen.map(\.scale) == expected.map(\.scale), "\(context)")
            for (s, e) in zip(seen, expected) {
                // Mirrored inside the viewport: W − position − w.
                let mirror = ltr.viewport - e.position - ltr.itemLength
                #expect(abs(s.position - mirror) <= tolerance, "\(context): \(s) \(e)")
            }
            switch (rtl.loopJumpTarget(for: r), ltr.loopJumpTarget(for: x)) {
            case (nil, nil): break
            case let (a?, b?): #expect(mirrored(a, b), "\(context): jump \(a) \(b)")
            case let (a, b): Issue.record("\(context): jumps \(String(describing: a)) \(String(describing: b))")
            }
        }
    }

    /// Whole scroll scripts on the scroller: drags, flings, raw reports and
    /// scrolls. The right-to-left run's frames (focus, direction, settling,
    /// visible items) equal the left-to-right run's, with offsets, jumps,
    /// release and scroll targets mirrored.
    @Test func aMirroredScriptGivesTheSameRunMirrored() throws {
        let input = zip(MirrorGen.layout(), GestureStep.gen.array(of: 1...16))
        // What the trials went through, so a generator gone tame shows.
        var jumps = 0, animations = 0, decelerations = 0, frameCount = 0
        try LayoutGen.check(input, seed: 0x52_54_4C, trials: 2000) { value, context in
            let (ltr, steps) = value
            let rtl = try rightToLeftTwin(of: ltr)
            let m = rtl.maxOffset
            let tolerance = 1e-9 * max(1, m)
            func mirrored(_ a: Double, _ b: Double) -> Bool { abs(a - (m - b)) <= tolerance }
            let right = try play(steps, on: rtl, mirrored: false)
            jumps += right.frames.count { $0.jump != nil }
            animations += right.releases.count { $0.motion == .animate }
            decelerations += right.releases.count { $0.motion == .decelerate }
            frameCount += right.frames.count
            let left = try play(steps, on: ltr, mirrored: true)
            let script = "\(context) \(steps)"
            #expect(right.errors == left.errors, "\(script)")
            try #require(right.frames.count == left.frames.count, "\(script)")
            for (a, b) in zip(right.frames, left.frames) {
                #expect(a.time == b.time && a.index == b.index && a.dataIndex == b.dataIndex, "\(script): \(a) \(b)")
                #expect(a.direction == b.direction && a.isSettled == b.isSettled, "\(script): \(a) \(b)")
                #expect(mirrored(a.offset, b.offset), "\(script): \(a) \(b)")
                #expect((a.jump == nil) == (b.jump == nil), "\(script): \(a) \(b)")
                if let ja = a.jump, let jb = b.jump {
                    #expect(mirrored(ja.from, jb.from) && mirrored(ja.to, jb.to), "\(script): \(a) \(b)")
                }
            }
            for (a, b) in zip(right.visible, left.visible) {
                #expect(a.map(\.index) == b.map(\.index) && a.map(\.scale) == b.map(\.scale), "\(script)")
            }
            try #require(right.releases.count == left.releases.count && right.commands.count == left.commands.count)
            for (a, b) in zip(right.releases, left.releases) {
                #expect(a.index == b.index && a.motion == b.motion && mirrored(a.targetOffset, b.targetOffset), "\(script)")
            }
            for (a, b) in zip(right.commands, left.commands) {
                #expect(a.index == b.index && a.dataIndex == b.dataIndex, "\(script)")
                #expect(mirrored(a.targetOffset, b.targetOffset), "\(script)")
            }
        }
        #expect(jumps > 50 && animations > 50 && decelerations > 50 && frameCount > 10_000)
        print("RTL scroller property: \(frameCount) frames, \(jumps) loop jumps, \(animations) animated and \(decelerations) decelerating releases")
    }
}
