import CarouselEngine
import PropertyBased
import Testing

/// VoiceOver and TalkBack paging on the scroller (issue 44): one page per
/// action, a loop wraps, an end does not move, `next` is index + 1 in
/// right-to-left too; and the status template a screen reader speaks.
@Suite("Accessibility paging")
struct AccessibilityPagingTests {
    /// Five 300-pt cards in a 390-pt viewport, centred: page 312.
    private func layout(_ direction: LayoutDirection = .leftToRight, loop: Bool = false, padding: Int = 2) throws -> CarouselLayout {
        try CarouselLayout(
            layoutDirection: direction, viewport: 390, itemLength: .points(300), spacing: 12,
            alignment: .center, dataCount: 5, loop: loop, loopPadding: padding, snap: .single)
    }

    /// Runs the scroller's frames until it settles; answers the last.
    private func settle(_ scroller: inout CarouselScroller) throws -> Frame? {
        var last: Frame?
        while let due = scroller.nextFrameTime { last = try scroller.frame(at: due) }
        return last
    }

    @Test func nextAndPreviousMoveOnePageAndAnEndDoesNotMove() throws {
        var scroller = try CarouselScroller(layout: try layout())
        let next = try scroller.accessibilityScroll(.next, animated: true, at: 0)
        #expect(next.dataIndex == 1 && next.command?.targetOffset == 312 && next.command?.animated == true)
        #expect(try settle(&scroller)?.dataIndex == 1)
        // Previous from card 0: the end; nothing moves, the same card is answered.
        var atStart = try CarouselScroller(layout: try layout())
        let stuck = try atStart.accessibilityScroll(.previous, animated: true, at: 0)
        #expect(stuck.isAtEnd && stuck.dataIndex == 0 && atStart.nextFrameTime == nil && atStart.offset == 0)
        // And next from the last card.
        var atEnd = try CarouselScroller(layout: try layout(), initialIndex: 4)
        let last = try atEnd.accessibilityScroll(.next, animated: false, at: 0)
        #expect(last.isAtEnd && last.dataIndex == 4 && atEnd.offset == 1248)
        #expect(atEnd.accessibilityStatus() == "Store 5 of 5, 4")
    }

    @Test func reducedMotionPagesJumpAtOnce() throws {
        var scroller = try CarouselScroller(layout: try layout())
        let turn = try scroller.accessibilityScroll(.next, animated: false, at: 100)
        #expect(turn.command?.animated == false)
        // One frame, now, settled: no animation in between.
        let frame = try scroller.frame(at: 100)
        #expect(frame.offset == 312 && frame.isSettled && scroller.nextFrameTime == nil)
    }

    @Test func aLoopWrapsForwardPastTheLastStoreAndBackPastTheFirst() throws {
        for padding in [1, 2] {
            var scroller = try CarouselScroller(layout: try layout(loop: true, padding: padding), initialIndex: 4)
            let wrap = try scroller.accessibilityScroll(.next, animated: true, at: 0)
            #expect(!wrap.isAtEnd && wrap.dataIndex == 0, "padding \(padding)")
            // Forward, not back across the list: the target lies one page on.
            let settled = try #require(try settle(&scroller))
            #expect(settled.dataIndex == 0 && scroller.focusedDataIndex == 0, "padding \(padding)")
            let back = try scroller.accessibilityScroll(.previous, animated: true, at: scroller.time)
            #expect(back.dataIndex == 4, "padding \(padding)")
            #expect(try settle(&scroller)?.dataIndex == 4)
        }
        // Padding 1 at the band's edge: item n + k = 6 shows store 0; next
        // jumps silently to its twin, then pages one forward.
        var edge = try CarouselScroller(layout: try layout(loop: true, padding: 1))
        try edge.setOffset(6 * 312, at: 0)
        _ = try edge.frame(at: 0)
        #expect(edge.focusedItem == 6 && edge.focusedDataIndex == 0)
        let turn = try edge.accessibilityScroll(.next, animated: true, at: 0)
        #expect(turn.dataIndex == 1 && turn.command?.index == 2)
        let first = try edge.frame(at: edge.nextFrameTime ?? 0)
        #expect(first.jump != nil, "the jump to the twin is reported with the next frame")
        #expect(try settle(&edge)?.dataIndex == 1)
    }

    @Test func inRightToLeftNextIsIndexPlusOneWithTheOffsetMirrored() throws {
        for loop in [false, true] {
            var ltr = try CarouselScroller(layout: try layout(.leftToRight, loop: loop), initialIndex: 2)
            var rtl = try CarouselScroller(layout: try layout(.rightToLeft, loop: loop), initialIndex: 2)
            for direction in [AccessibilityScrollDirection.next, .next, .previous, .next, .next, .next] {
                let l = try ltr.accessibilityScroll(direction, animated: true, at: ltr.time)
                let r = try rtl.accessibilityScroll(direction, animated: true, at: rtl.time)
                #expect(l.dataIndex == r.dataIndex && l.isAtEnd == r.isAtEnd)
                if let lc = l.command, let rc = r.command {
                    #expect(rc.targetOffset == rtl.layout.maxOffset - lc.targetOffset)
                }
                let lf = try settle(&ltr), rf = try settle(&rtl)
                #expect(lf?.dataIndex == rf?.dataIndex)
                #expect(ltr.offset == rtl.layout.maxOffset - rtl.offset)
            }
            // From 2: 3, 4, 3, 4, then 0 and 1 in loop mode (it wraps), or 4
            // twice more without one (at the end).
            #expect(rtl.focusedDataIndex == (loop ? 1 : 4))
        }
    }

    @Test func anEmptyCarouselCannotPage() throws {
        var scroller = try CarouselScroller(layout: try LayoutSpec().layout(dataCount: 0))
        #expect(throws: ScrollError.itemOutOfRange(index: 0, dataCount: 0)) {
            try scroller.accessibilityScroll(.next, animated: true, at: 0)
        }
        #expect(scroller.accessibilityStatus() == nil)
    }

    // MARK: Status template

    @Test func aTemplateFillsItsPlaceholders() throws {
        let template = try StatusTemplate("Store {position} of {count}, {name}, {hours}, {distance}")
        #expect(
            template.status([.position: "3", .count: "44", .name: "Haneul Coffee Cheongdam", .hours: "open until 22:00", .distance: "350 m"])
                == "Store 3 of 44, Haneul Coffee Cheongdam, open until 22:00, 350 m")
        #expect(template.placeholders == [.position, .count, .name, .hours, .distance])
        #expect(try StatusTemplate("{count}개 중 {position}번째").status([.position: "3", .count: "44"]) == "44개 중 3번째")
        #expect(StatusTemplate.standard.text == "Store {position} of {count}, {name}")
    }

    @Test func anUnknownPlaceholderIsAThrownErrorNamingTheKnownOnes() throws {
        #expect(throws: StatusTemplateError(.unknownPlaceholder("nmae"))) { try StatusTemplate("Store {nmae}") }
        #expect(throws: StatusTemplateError(.unclosed("{position of"))) { try StatusTemplate("Page {position of") }
        #expect(throws: StatusTemplateError(.unknownPlaceholder(""))) { try StatusTemplate("{}") }
        let message = StatusTemplateError(.unknownPlaceholder("nmae")).description
        #expect(
            message
                == "unknown placeholder {nmae}; known placeholders: {position}, {count}, {name}, {id}, {hours}, {distance}")
        #expect(!message.contains("\n"))
    }

    // MARK: Property: right-to-left is the left-to-right run mirrored

    /// One VoiceOver action of a random script: `next` or `previous`, animated
    /// or not (reduced motion), and the ms until the next one (often less
    /// than an animation, so pages interrupt pages).
    struct Step: Sendable, CustomStringConvertible {
        let direction: AccessibilityScrollDirection
        let animated: Bool
        let gap: Double
        var description: String { "\(direction.rawValue)\(animated ? "" : " (jump)") +\(gap)" }

        static let gen = zip(Gen.bool(), Gen.bool(), Gen.double(in: 0...700))
            .map { Step(direction: $0 ? .next : .previous, animated: $1, gap: $2) }
    }

    /// For random layouts (every snap rule and preset, loops) and random
    /// page scripts: each action goes to index ± 1 of the card focused then
    /// (wrapping in a loop, staying at an end without one), and the
    /// right-to-left run's turns and frames are the left-to-right run's,
    /// offsets mirrored.
    @Test func pagingIsLogicalAndRightToLeftIsTheMirror() throws {
        let input = zip(MirrorGen.layout(), Step.gen.array(of: 1...12))
        var counts = Counts()
        try LayoutGen.check(input, seed: 0x41_31_31_59, trials: 1000) { value, context in
            try Self.playTwins(value.0, value.1, context: "\(context) \(value.1)", counts: &counts)
        }
        // The scripts reach ends and wrap loops, not only the middle.
        #expect(
            counts.turns > 5_000 && counts.ends > 300 && counts.wraps > 100,
            "\(counts.turns) turns, \(counts.ends) at an end, \(counts.wraps) wraps")
    }

    /// What the random scripts went through, so a generator gone tame shows.
    struct Counts {
        var turns = 0, ends = 0, wraps = 0
    }

    /// Plays `steps` on `ltr` and its right-to-left twin, checking each turn
    /// and every frame.
    private static func playTwins(_ ltr: CarouselLayout, _ steps: [Step], context: String, counts: inout Counts) throws {
        let rtl = try rightToLeftTwin(of: ltr)
        let m = rtl.maxOffset, n = ltr.dataCount
        let tolerance = 1e-9 * max(1, m)
        var left = try CarouselScroller(layout: ltr)
        var right = try CarouselScroller(layout: rtl)
        var t = 0.0
        for step in steps {
            var probe = left
            let before = try probe.frame(at: t).dataIndex ?? -1
            let a = try left.accessibilityScroll(step.direction, animated: step.animated, at: t)
            let b = try right.accessibilityScroll(step.direction, animated: step.animated, at: t)
            let moved = before + step.direction.step
            let expected = ltr.loop != nil ? (moved + n) % n : min(max(moved, 0), n - 1)
            #expect(a.dataIndex == expected, "\(context): from \(before)")
            #expect(a.dataIndex == b.dataIndex && a.isAtEnd == b.isAtEnd, "\(context)")
            #expect(a.command?.index == b.command?.index, "\(context)")
            if let ca = a.command, let cb = b.command {
                #expect(abs(cb.targetOffset - (m - ca.targetOffset)) <= tolerance, "\(context)")
            }
            counts.turns += 1
            if a.isAtEnd { counts.ends += 1 }
            if ltr.loop != nil, moved < 0 || moved >= n { counts.wraps += 1 }
            t += step.gap
            while let due = left.nextFrameTime, due <= t {
                let fa = try left.frame(at: due)
                let fb = try right.frame(at: right.nextFrameTime ?? due)
                #expect(fa.time == fb.time && fa.index == fb.index && fa.dataIndex == fb.dataIndex, "\(context)")
                #expect(fa.isSettled == fb.isSettled && fa.direction == fb.direction, "\(context)")
                #expect(abs(fb.offset - (m - fa.offset)) <= tolerance, "\(context)")
            }
            #expect(right.nextFrameTime.map { $0 > t } ?? true, "\(context)")
        }
    }
}
