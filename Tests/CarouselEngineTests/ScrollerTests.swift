import CarouselEngine
import Foundation
import Testing

@Suite("Scroller state machine")
struct ScrollerTests {
    /// Centred 300-pt cards, spacing 12 (page 312), single + fast: the default preset.
    let layout = try! LayoutSpec().layout(dataCount: 10)

    @Test func atRestNoFrameIsDue() throws {
        let scroller = try CarouselScroller(layout: layout, initialIndex: 3)
        #expect(scroller.offset == 936 && scroller.focusedItem == 3)
        #expect(scroller.nextFrameTime == nil && scroller.isSettled)
    }

    @Test func dragFramesAreDueAtOnceAndFollowTheTranslation() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.beginDrag(at: 0)
        #expect(scroller.nextFrameTime == nil, "touching down moves nothing")
        try scroller.drag(translation: 100, at: 16)
        #expect(scroller.nextFrameTime == 16)
        let frame = try scroller.frame(at: 16)
        #expect(frame == Frame(time: 16, offset: 100, index: 0, dataIndex: 0, direction: .forward, isSettled: false))
        try scroller.drag(translation: -50, at: 32)
        #expect(try scroller.frame(at: 32).offset == 0, "pinned to the content, no rubber band")
    }

    @Test func motionFramesTickEveryFrameMsFromTheReleaseUntilSettled() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 100, at: 100)
        _ = try scroller.frame(at: 100)
        let release = try scroller.release(velocity: 1, at: 100)
        #expect(release.index == 1 && release.motion == .decelerate)
        let frames = try scroller.framesUntilSettled()
        for (k, frame) in frames.enumerated() {
            #expect(frame.time == 100 + Double(k + 1) * layout.frameMs, "frame \(k)")
        }
        // Within 0.5 pt of 312 after ln(0.5 / 212) / ln(0.99) ms.
        let motionEnd = 100 + log(0.5 / 212) / log(0.99)
        #expect(frames.last!.time >= motionEnd && frames.last!.time < motionEnd + layout.frameMs)
        #expect(frames.last!.offset == 312 && frames.last!.isSettled)
        #expect(frames.dropLast().allSatisfy { !$0.isSettled && $0.direction == .forward })
        #expect(scroller.nextFrameTime == nil)
    }

    @Test func framesSampledOffTheGridResumeOnIt() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.release(velocity: 2, at: 0)
        _ = try scroller.frame(at: 40)  // between ticks 2 and 3
        #expect(scroller.nextFrameTime == 3 * layout.frameMs)
        _ = try scroller.frame(at: 3 * layout.frameMs)
        #expect(scroller.nextFrameTime == 4 * layout.frameMs)
    }

    @Test func aNewDragStopsTheMotionWhereItIs() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.release(velocity: 2, at: 0)
        let expected = scroller.motion!.offset(at: 50)
        try scroller.beginDrag(at: 50)
        #expect(scroller.motion == nil && scroller.offset == expected)
        #expect(scroller.nextFrameTime == 50, "the content moved since the last frame")
        // `single` counts from where the new drag began: the focused item there.
        let start = scroller.focusedItem!
        try scroller.drag(translation: 10, at: 60)
        #expect(try scroller.release(velocity: 20, at: 60).index == start + 1)
    }

    @Test func animatedScrollEasesToTheItemAndCancelsTheFling() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.release(velocity: 2, at: 0)
        let command = try scroller.scroll(toItem: 6, animated: true, at: 20)
        #expect(command == ScrollCommand(index: 6, dataIndex: 6, targetOffset: 1872, animated: true))
        #expect(scroller.motion?.kind == .animate && scroller.motion?.endTime == 320)
        let frames = try scroller.framesUntilSettled()
        #expect(frames.last?.offset == 1872 && frames.last?.index == 6 && frames.last?.isSettled == true)
        #expect(frames.last!.time < 320 + layout.frameMs)
    }

    @Test func unanimatedScrollJumpsAndOneFrameReportsIt() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.scroll(toItem: 4, animated: false, at: 5)
        #expect(scroller.nextFrameTime == 5)
        let frame = try scroller.frame(at: 5)
        #expect(frame.offset == 1248 && frame.isSettled && frame.direction == .forward)
        #expect(scroller.nextFrameTime == nil)
    }

    @Test func rawOffsetReportsStopMotionAndArePinned() throws {
        var scroller = try CarouselScroller(layout: layout)
        try scroller.release(velocity: 2, at: 0)
        try scroller.setOffset(936, at: 10)
        #expect(scroller.motion == nil && scroller.offset == 936 && scroller.focusedItem == 3)
        try scroller.setOffset(99_999, at: 20)
        #expect(scroller.offset == layout.maxOffset)
    }

    @Test func loopScrollGoesToTheNearestTwin() throws {
        let loop = try LayoutSpec(loop: true).layout(dataCount: 5)  // items 0…8, data [3 4 0 1 2 3 4 0 1]
        var scroller = try CarouselScroller(layout: loop, initialIndex: 4)  // item 6
        #expect(try scroller.scroll(toItem: 0, animated: false, at: 0).index == 7)
        #expect(try scroller.scroll(toItem: 3, animated: false, at: 0).index == 5)
        var back = try CarouselScroller(layout: loop)  // item 2
        #expect(try back.scroll(toItem: 4, animated: true, at: 0).index == 1, "rest(k − 1) itself is no jump")
        #expect(try back.framesUntilSettled().allSatisfy { $0.jump == nil })
        // Data 3 shows on items 0 and 5; item 0 is nearer, past the jump line.
        var far = try CarouselScroller(layout: loop)
        #expect(try far.scroll(toItem: 3, animated: true, at: 0).index == 0)
        let frames = try far.framesUntilSettled()
        #expect(frames.compactMap(\.jump).count == 1, "passing below rest(k − 1) jumps")
        #expect(frames.last?.dataIndex == 3 && frames.last?.index == 5 && frames.last?.offset == loop.rest(5))
    }

    @Test func callsOutOfOrderOrWithoutADragAreErrors() throws {
        var scroller = try CarouselScroller(layout: layout, at: 100)
        #expect(throws: ScrollError.timeWentBackwards(time: 50, now: 100)) { try scroller.frame(at: 50) }
        #expect(throws: ScrollError.notDragging) { try scroller.drag(translation: 5, at: 100) }
        #expect(throws: ScrollError.nonFinite(parameter: "velocity", value: .infinity)) {
            try scroller.release(velocity: .infinity, at: 100)
        }
        #expect(throws: ScrollError.itemOutOfRange(index: 10, dataCount: 10)) {
            try scroller.scroll(toItem: 10, animated: true, at: 100)
        }
        #expect(throws: ScrollError.itemOutOfRange(index: -1, dataCount: 10)) {
            try CarouselScroller(layout: layout, initialIndex: -1)
        }
        #expect(ScrollError.notDragging.description.contains("beginDrag"))
    }
}
