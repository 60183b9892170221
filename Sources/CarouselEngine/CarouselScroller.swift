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
    /// The current content offset.
    public private(set) var offset: Double
    /// The motion in flight, if any.
    public private(set) var motion: Motion?
    /// The drag in progress, if any.
    public private(set) var drag: Drag?

    /// The offset of the latest frame, moved along with loop jumps so that a
    /// frame's direction compares like with like.
    private var reportedOffset: Double
    /// Jumps made since the latest frame, merged.
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
        offset = layout.dataCount == 0 ? 0 : layout.rest(layout.firstDataItem + initialIndex)
        reportedOffset = offset
    }

    // MARK: State

    /// True when nothing moves: no drag and no motion in flight.
    public var isSettled: Bool { motion == nil && drag == nil }

    /// The focused laid-out item; nil when empty.
    public var focusedItem: Int? { layout.focusedItem(at: offset) }

    /// The data index of the focused item; nil when empty.
    public var focusedDataIndex: Int? { layout.focusedDataIndex(at: offset) }

    /// The items visible now, with fraction and scale.
    public var visibleItems: VisibleItems { layout.visibleItems(at: offset) }

    /// When the next frame is due: now if the content moved since the latest
    /// frame, else the next tick of the motion in flight, else nil (at rest,
    /// no frames, as UIKit stops calling `scrollViewDidScroll`).
    public var nextFrameTime: Double? {
        if offset != reportedOffset || unreportedJump != nil { return time }
        guard let motion else { return nil }
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
            direction: offset > reportedOffset ? .forward : offset < reportedOffset ? .backward : .none,
            jump: unreportedJump,
            isSettled: isSettled
        )
        reportedOffset = offset
        unreportedJump = nil
        if let motion {
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
        motion = nil
        drag = Drag(startOffset: offset, origin: offset)
    }

    /// The finger has moved the content by `translation` points since the
    /// drag began (positive toward later items); the offset follows, pinned
    /// to the content (no rubber band). Nothing moves when scrolling is off.
    public mutating func drag(translation: Double, at t: Double) throws(ScrollError) {
        guard translation.isFinite else { throw .nonFinite(parameter: "translation", value: translation) }
        try advance(to: t)
        guard let drag else { throw .notDragging }
        guard layout.isScrollEnabled else { return }
        move(to: layout.clampedOffset(drag.origin + translation))
    }

    /// The finger lifts with `velocity` (pt/ms, positive toward later items):
    /// the snap rule picks the target and a motion heads there.
    /// Without a drag in progress the release counts as one begun here.
    @discardableResult
    public mutating func release(velocity: Double, at t: Double) throws(ScrollError) -> Release {
        guard velocity.isFinite else { throw .nonFinite(parameter: "velocity", value: velocity) }
        try advance(to: t)
        let release = layout.checkedRelease(at: offset, velocity: velocity, dragStart: drag?.startOffset ?? offset)
        drag = nil
        switch release.motion {
        case .decelerate:
            start(.decelerate(from: offset, to: release.targetOffset, rate: layout.deceleration, at: t))
        case .animate:
            // The Instagram-paging article's fix: stop at the release offset, then animate to the target.
            start(.animate(from: offset, to: release.targetOffset, duration: layout.animationMs, at: t))
        }
        return release
    }

    /// A raw offset report, as `scrollViewDidScroll` would give: no physics,
    /// any motion stops, a drag in progress carries on from here. The offset
    /// is pinned to the content, then loop-jumped if it calls for it.
    public mutating func setOffset(_ newOffset: Double, at t: Double) throws(ScrollError) {
        guard newOffset.isFinite else { throw .nonFinite(parameter: "offset", value: newOffset) }
        try advance(to: t)
        motion = nil
        let target = layout.clampedOffset(newOffset)
        drag?.origin += target - offset
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
        motion = nil
        drag = nil
        let item = layout.nearestItem(showing: dataIndex, to: offset)
        let target = layout.rest(item)
        if animated {
            start(.animate(from: offset, to: target, duration: layout.animationMs, at: t))
        } else {
            move(to: target)
        }
        return ScrollCommand(index: item, dataIndex: dataIndex, targetOffset: target, animated: animated)
    }

    // MARK: Internals

    /// Moves the clock to `t`, carrying any motion along; a motion that has
    /// finished by then is retired.
    private mutating func advance(to t: Double) throws(ScrollError) {
        guard t.isFinite else { throw .nonFinite(parameter: "time", value: t) }
        guard t >= time else { throw .timeWentBackwards(time: t, now: time) }
        time = t
        guard let motion else { return }
        if motion.isFinished(at: t) { self.motion = nil }
        move(to: motion.offset(at: t))
    }

    /// Starts `motion`, or lands on its target at once if it is already
    /// finished (a fling within 0.5 pt, an animation with nowhere to go).
    private mutating func start(_ motion: Motion) {
        if motion.isFinished(at: time) {
            self.motion = nil
            move(to: motion.to)
        } else {
            self.motion = motion
            nextMotionFrame = 1
        }
    }

    /// Sets the offset, then makes the loop jump it calls for (the infinite-banner article): the
    /// offset, the motion in flight, the drag and the last frame's offset all
    /// move by the same amount, so nothing but the jump itself is visible.
    private mutating func move(to newOffset: Double) {
        offset = newOffset
        guard let delta = layout.loopJump(for: newOffset) else { return }
        offset += delta
        motion?.shift(by: delta)
        drag?.shift(by: delta)
        reportedOffset += delta
        unreportedJump = Frame.Jump(from: unreportedJump?.from ?? newOffset, to: offset)
    }
}
