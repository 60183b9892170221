/// A carousel's scroll state, driven by calls on a caller's clock: the
/// deterministic stand-in for `UIScrollView` that a simulator steps through
/// time.
///
/// It holds the offset, the drag in progress and the motion in flight. Every
/// call carries its time in ms; calls must come in time order. Commands
/// (``beginDrag(at:)``, ``drag(translation:at:)``, ``release(velocity:at:)``,
/// ``setOffset(_:at:)``, ``scroll(toItem:animated:at:)``) change the state
/// and return values, never call back; ``frame(at:)`` is the one place frames
/// come from. A driver loop looks like:
///
/// ```swift
/// try scroller.release(velocity: 1.2, at: t)
/// while let due = scroller.nextFrameTime, due <= nextEventTime {
///     emit(try scroller.frame(at: due))
/// }
/// ```
///
/// ``nextFrameTime`` is "now" after a command moved the content (UIKit calls
/// `scrollViewDidScroll` at once), then every `frameMs` from the start of a
/// motion until the frame that finds it finished, which reports
/// ``Frame/isSettled``. A new drag or scroll cancels a motion in flight where
/// it is at that instant.
///
/// In right-to-left every offset, translation and velocity in and out is a
/// flipped flow layout's (see ``LayoutDirection``); inside, the scroller
/// runs the left-to-right machinery on the logical offset, so its frames are
/// its left-to-right twin's mirrored. ``Frame/direction`` stays logical:
/// `forward` is toward later items in both directions.
public struct CarouselScroller: Hashable, Sendable {
    /// A drag in progress.
    public struct Drag: Hashable, Sendable {
        /// The offset when the drag began: its focused item is the start of
        /// `single` snapping, its page the start page of `page` snapping.
        public fileprivate(set) var startOffset: Double
        /// The offset a translation of zero stands for.
        public fileprivate(set) var origin: Double

        fileprivate mutating func shift(by delta: Double) {
            startOffset += delta
            origin += delta
        }
    }

    /// The layout scrolled.
    public let layout: CarouselLayout
    /// The time of the latest call, ms.
    public private(set) var time: Double
    /// The current content offset, in the layout's direction.
    public var offset: Double { layout.logicalOffset(position) }
    /// The motion in flight, if any, in the layout's direction.
    public var motion: Motion? {
        layout.isMirrored ? logicalMotion?.reflected(about: layout.maxOffset) : logicalMotion
    }
    /// The drag in progress, if any, its offsets in the layout's direction.
    public var drag: Drag? {
        logicalDrag.map { Drag(startOffset: layout.logicalOffset($0.startOffset), origin: layout.logicalOffset($0.origin)) }
    }

    /// The logical (left-to-right) offset: `offset` itself, or its mirror
    /// in right-to-left. The state below is all logical; only the public
    /// surface converts.
    private var position: Double
    /// The motion in flight, logical.
    private var logicalMotion: Motion?
    /// The drag in progress, logical.
    private var logicalDrag: Drag?

    /// The logical offset of the latest frame, moved along with loop jumps
    /// so that a frame's direction compares like with like.
    private var reportedOffset: Double
    /// Jumps made since the latest frame, merged (logical offsets).
    private var unreportedJump: Frame.Jump?
    /// The motion's next frame is due at `startTime + nextMotionFrame · frameMs`:
    /// a grid from the motion's start, so times do not drift by summing.
    private var nextMotionFrame = 1

    /// A carousel at rest on `initialIndex` (a data index; in loop mode its
    /// first twin, item `k + initialIndex`, as the infinite banner starts on item 2) at time `time`.
    public init(layout: CarouselLayout, initialIndex: Int = 0, at time: Double = 0) throws(ScrollError) {
        guard time.isFinite else { throw .nonFinite(parameter: "time", value: time) }
        guard layout.dataCount == 0 ? initialIndex == 0 : (0..<layout.dataCount).contains(initialIndex) else {
            throw .itemOutOfRange(index: initialIndex, dataCount: layout.dataCount)
        }
        self.layout = layout
        self.time = time
        position = layout.dataCount == 0 ? 0 : layout.logicalRest(layout.firstDataItem + initialIndex)
        reportedOffset = position
    }

    // MARK: State

    /// True when nothing moves: no drag and no motion in flight.
    public var isSettled: Bool { logicalMotion == nil && logicalDrag == nil }

    /// The focused laid-out item; nil when empty.
    public var focusedItem: Int? { layout.focusedItem(atLogical: position) }

    /// The data index of the focused item; nil when empty.
    public var focusedDataIndex: Int? { focusedItem.map(layout.dataIndex(ofItem:)) }

    /// The items visible now, with fraction and scale.
    public var visibleItems: VisibleItems { VisibleItems(layout: layout, logicalOffset: position) }

    /// When the next frame is due: now if the content moved since the latest
    /// frame, else the next tick of the motion in flight, else nil (at rest,
    /// no frames, as UIKit stops calling `scrollViewDidScroll`).
    public var nextFrameTime: Double? {
        if position != reportedOffset || unreportedJump != nil { return time }
        guard let motion = logicalMotion else { return nil }
        return motion.startTime + Double(nextMotionFrame) * layout.frameMs
    }

    // MARK: Frames

    /// Advances any motion to `t` and reports the frame there: offset, focus,
    /// direction since the previous frame, a loop jump if one happened.
    public mutating func frame(at t: Double) throws(ScrollError) -> Frame {
        try advance(to: t)
        let frame = Frame(
            time: t,
            offset: offset,
            index: focusedItem,
            dataIndex: focusedDataIndex,
            direction: position > reportedOffset ? .forward : position < reportedOffset ? .backward : .none,
            jump: unreportedJump.map { Frame.Jump(from: layout.logicalOffset($0.from), to: layout.logicalOffset($0.to)) },
            isSettled: isSettled
        )
        reportedOffset = position
        unreportedJump = nil
        if let motion = logicalMotion {
            // Skip the ticks at or before t, wherever the caller sampled.
            // (Capped so that even an absurdly long motion cannot trap Int(_:).)
            let ticks = min(((t - motion.startTime) / layout.frameMs).rounded(.down), 1e15)
            nextMotionFrame = max(nextMotionFrame, Int(ticks) + 1)
            while motion.startTime + Double(nextMotionFrame) * layout.frameMs <= t { nextMotionFrame += 1 }
        }
        return frame
    }

    // MARK: Commands

    /// A finger touches down: any motion stops where it is now, and a drag
    /// starts from here.
    public mutating func beginDrag(at t: Double) throws(ScrollError) {
        try advance(to: t)
        logicalMotion = nil
        logicalDrag = Drag(startOffset: position, origin: position)
    }

    /// The finger has moved the content by `translation` points since the
    /// drag began (a change of the offset: toward later items in
    /// left-to-right, earlier ones in right-to-left); the offset follows,
    /// pinned to the content (no rubber band). Nothing moves when scrolling is off.
    public mutating func drag(translation: Double, at t: Double) throws(ScrollError) {
        guard translation.isFinite else { throw .nonFinite(parameter: "translation", value: translation) }
        try advance(to: t)
        guard let drag = logicalDrag else { throw .notDragging }
        guard layout.isScrollEnabled else { return }
        move(to: layout.clampedOffset(drag.origin + layout.logicalDelta(translation)))
    }

    /// The finger lifts with `velocity` (pt/ms, positive as the offset
    /// grows): the snap rule picks the target and a motion heads there; the
    /// release answered is in the layout's direction.
    /// Without a drag in progress the release counts as one begun here.
    @discardableResult
    public mutating func release(velocity: Double, at t: Double) throws(ScrollError) -> Release {
        guard velocity.isFinite else { throw .nonFinite(parameter: "velocity", value: velocity) }
        try advance(to: t)
        let release = layout.checkedRelease(
            at: position, velocity: layout.logicalDelta(velocity), dragStart: logicalDrag?.startOffset ?? position)
        logicalDrag = nil
        switch release.motion {
        case .decelerate:
            start(.decelerate(from: position, to: release.targetOffset, rate: layout.deceleration, at: t))
        case .animate:
            // The Instagram-paging article's fix: stop at the release offset, then animate to the target.
            start(.animate(from: position, to: release.targetOffset, duration: layout.animationMs, at: t))
        }
        return layout.platformRelease(release)
    }

    /// A raw offset report, as `scrollViewDidScroll` would give: no physics,
    /// any motion stops, a drag in progress carries on from here. The offset
    /// is pinned to the content, then loop-jumped if it calls for it.
    public mutating func setOffset(_ newOffset: Double, at t: Double) throws(ScrollError) {
        guard newOffset.isFinite else { throw .nonFinite(parameter: "offset", value: newOffset) }
        try advance(to: t)
        logicalMotion = nil
        let target = layout.clampedOffset(layout.logicalOffset(newOffset))
        logicalDrag?.origin += target - position
        move(to: target)
    }

    /// Scrolls to data index `dataIndex` — in loop mode to its twin nearest
    /// the current offset — animated with the ease-in-out curve over
    /// `animationMs`, or at once. Cancels any motion and ends any drag.
    @discardableResult
    public mutating func scroll(toItem dataIndex: Int, animated: Bool, at t: Double) throws(ScrollError) -> ScrollCommand {
        guard (0..<layout.dataCount).contains(dataIndex) else {
            throw .itemOutOfRange(index: dataIndex, dataCount: layout.dataCount)
        }
        try advance(to: t)
        return scroll(toLaidOutItem: layout.nearestItem(showing: dataIndex, toLogical: position), animated: animated)
    }

    /// Performs `command` as commanded: to its laid-out item (in loop mode
    /// that very twin, so a page forward past the last store stays forward),
    /// animated or at once. Cancels any motion and ends any drag.
    @discardableResult
    public mutating func perform(_ command: ScrollCommand, at t: Double) throws(ScrollError) -> ScrollCommand {
        guard (0..<layout.itemCount).contains(command.index) else {
            throw .itemOutOfRange(index: command.index, dataCount: layout.itemCount)
        }
        try advance(to: t)
        return scroll(toLaidOutItem: command.index, animated: command.animated)
    }

    // MARK: Accessibility support (AccessibilityPaging.swift)

    /// Laid-out item `item` (in `0..<itemCount`), animated from here or at
    /// once, at the current time; cancels any motion and ends any drag.
    mutating func scroll(toLaidOutItem item: Int, animated: Bool) -> ScrollCommand {
        logicalMotion = nil
        logicalDrag = nil
        let target = layout.logicalRest(item)
        if animated {
            start(.animate(from: position, to: target, duration: layout.animationMs, at: time))
        } else {
            move(to: target)
        }
        return ScrollCommand(
            index: item, dataIndex: layout.dataIndex(ofItem: item), targetOffset: layout.logicalOffset(target),
            animated: animated)
    }

    /// Carries the clock to `t` and answers the focused item then.
    mutating func focusedItemAfterAdvancing(to t: Double) throws(ScrollError) -> Int? {
        try advance(to: t)
        return focusedItem
    }

    /// A silent jump by `periods` whole loop periods to the twin showing
    /// the same store, reported with the next frame as any loop jump is.
    mutating func shiftByLoopPeriods(_ periods: Int) {
        guard let loop = layout.loop else { return }
        let from = position
        let delta = Double(periods) * Double(loop.dataCount) * layout.page
        position += delta
        logicalMotion?.shift(by: delta)
        logicalDrag?.shift(by: delta)
        reportedOffset += delta
        unreportedJump = Frame.Jump(from: unreportedJump?.from ?? from, to: position)
    }

    // MARK: Internals

    /// Moves the clock to `t`, carrying any motion along; a motion that has
    /// finished by then is retired.
    private mutating func advance(to t: Double) throws(ScrollError) {
        guard t.isFinite else { throw .nonFinite(parameter: "time", value: t) }
        guard t >= time else { throw .timeWentBackwards(time: t, now: time) }
        time = t
        guard let motion = logicalMotion else { return }
        if motion.isFinished(at: t) { logicalMotion = nil }
        move(to: motion.offset(at: t))
    }

    /// Starts `motion`, or lands on its target at once if it is already
    /// finished (a fling within 0.5 pt, an animation with nowhere to go).
    private mutating func start(_ motion: Motion) {
        if motion.isFinished(at: time) {
            logicalMotion = nil
            move(to: motion.to)
        } else {
            logicalMotion = motion
            nextMotionFrame = 1
        }
    }

    /// Sets the offset, then makes the loop jump it calls for (the infinite-banner article): the
    /// offset, the motion in flight, the drag and the last frame's offset all
    /// move by the same amount, so nothing but the jump itself is visible.
    private mutating func move(to newOffset: Double) {
        position = newOffset
        guard let delta = layout.loopJump(for: newOffset) else { return }
        position += delta
        logicalMotion?.shift(by: delta)
        logicalDrag?.shift(by: delta)
        reportedOffset += delta
        unreportedJump = Frame.Jump(from: unreportedJump?.from ?? newOffset, to: position)
    }
}
