import CarouselEngine
import Locks
import Observables

extension MapSyncViewModel {
    // MARK: Accessibility page actions

    /// An assistive technology pages the carousel: VoiceOver's three-finger
    /// swipe (UIKit's `accessibilityScroll(_:)`, SwiftUI's
    /// `accessibilityScrollAction`) or TalkBack's scroll forward and
    /// backward. One store in `direction`, logically (`next` is index + 1
    /// in right-to-left too); a loop wraps.
    ///
    /// The map follows at once, without the debounce (the user asked for
    /// that store, as with a marker tap), the carousel is commanded to
    /// scroll there (``carouselScroll``, animated unless reduced motion is
    /// on), and the store's status is sent at once (``accessibilityStatus``).
    /// At an end nothing moves and the same status is sent again: hearing it
    /// twice is how a VoiceOver user learns the end was reached.
    ///
    /// - Returns: whether the carousel moved, as `accessibilityScroll(_:)`
    ///   returns (false at an end, or with no store to show).
    @discardableResult
    public func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool {
        let turn = state.withLock { state -> (session: Session, index: Int, item: Int?)? in
            guard let session = state.session, session.count > 0,
                let item = state.pagingItem(in: session.layout)
            else { return nil }
            let layout = session.layout
            guard var target = layout.accessibilityTarget(from: item, direction) else {
                return (session, layout.dataIndex(ofItem: item), nil)
            }
            if !(0..<layout.itemCount).contains(target) {
                // At a loop band's edge (loop padding 1) the next item's twin.
                target = layout.nearestItem(showing: layout.dataIndex(ofItem: target), to: state.offset)
            }
            let index = layout.dataIndex(ofItem: target)
            state.statusIndex = index
            state.commandedItem = target
            return (session, index, target)
        }
        guard let turn else { return false }
        if let item = turn.item {
            turn.session.selections.onNext(turn.index)
            outputs.scroll.onNext(
                ScrollCommand(
                    index: item, dataIndex: turn.index, targetOffset: turn.session.layout.rest(item),
                    animated: !motion.reduceMotion))
        }
        announce(turn.index, in: turn.session)
        return turn.item != nil
    }

    /// The adjustable trait's swipe up (UIKit's `accessibilityIncrement()`,
    /// SwiftUI's `accessibilityAdjustableAction` `.increment`): the next store.
    @discardableResult
    public func accessibilityIncrement() -> Bool { accessibilityScroll(.next) }

    /// The adjustable trait's swipe down (UIKit's `accessibilityDecrement()`,
    /// SwiftUI's `accessibilityAdjustableAction` `.decrement`): the previous store.
    @discardableResult
    public func accessibilityDecrement() -> Bool { accessibilityScroll(.previous) }

    // MARK: Status

    /// The template statuses are built from; `StatusTemplate.standard` until set.
    public var statusTemplate: StatusTemplate { state.withLock { $0.statusTemplate } }

    /// Builds statuses from `template` from now on: the app's localized
    /// text, whose `{name}`, `{hours}` and `{distance}` come from the store
    /// directory's `statusDetails(at:)`. The template was checked when it
    /// was made (`StatusTemplate(_:)` throws on an unknown placeholder).
    public func setStatusTemplate(_ template: StatusTemplate) {
        state.withLock { $0.statusTemplate = template }
    }

    /// The carousel came to rest: what an app calls from
    /// `scrollViewDidEndDecelerating`, `scrollViewDidEndScrollingAnimation`
    /// and `scrollViewDidEndDragging(_:willDecelerate: false)` — a frame
    /// with `Frame.isSettled` calls it by itself. Ends the `drag` and
    /// `markerTap` pauses of autoplay, and sends the status of the store in
    /// focus if it is not the one last announced: one status per settled
    /// page, none while a finger drags.
    public func didSettle() {
        let settled = state.withLock { state -> (Session, Int)? in
            state.commandedItem = nil
            guard let session = state.session, session.count > 0,
                let index = session.layout.focusedDataIndex(at: state.offset), index < session.count,
                index != state.statusIndex
            else { return nil }
            state.statusIndex = index
            return (session, index)
        }
        if let (session, index) = settled { announce(index, in: session) }
        updateAutoplay { gate in
            gate.reasons.remove(.drag)
            gate.reasons.remove(.markerTap)
        }
    }

    /// A finger touched the carousel (`scrollViewWillBeginDragging`):
    /// autoplay pauses until it settles (``didSettle()``).
    public func beginDragging() {
        state.withLock { $0.commandedItem = nil }
        updateAutoplay { $0.reasons.insert(.drag) }
    }

    /// Sends store `index`'s status.
    func announce(_ index: Int, in session: Session) {
        let template = state.withLock { $0.statusTemplate }
        outputs.status.onNext(AccessibilityStatus(index: index, text: template.status(of: index, in: session.stores)))
    }

    // MARK: Reduced motion

    /// Whether the user asked for reduced motion.
    public var reduceMotion: Bool { motion.reduceMotion }

    /// The user's reduced-motion preference (`UIAccessibility.isReduceMotionEnabled`
    /// and its `reduceMotionStatusDidChangeNotification`, SwiftUI's
    /// `accessibilityReduceMotion`, the web's `prefers-reduced-motion`).
    /// While on: every commanded scroll (marker tap, accessibility page,
    /// autoplay) jumps instead of animating, every camera's transition is
    /// `jump` instead of a flight, and autoplay is paused
    /// (`AutoplayPauseReason.reducedMotion`) until the user's play — the
    /// APG carousel example starts its rotation paused under
    /// `prefers-reduced-motion`. Turning it off ends that pause.
    public func setReduceMotion(_ on: Bool) {
        motion.reduceMotion = on
        updateAutoplay { gate in
            if on { gate.reasons.insert(.reducedMotion) } else { gate.reasons.remove(.reducedMotion) }
        }
    }
}

/// The reduce-motion setting, shared by the view model and its pipeline
/// (which must not hold the view model).
final class MotionPreference: Sendable {
    private let flag = StateLock(false)

    var reduceMotion: Bool {
        get { flag.withLock { $0 } }
        set { flag.withLock { $0 = newValue } }
    }
}
