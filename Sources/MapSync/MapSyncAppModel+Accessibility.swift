import CarouselEngine
import Observables

/// Accessibility, reduced motion and autoplay, on the main actor: the
/// inputs an app's accessibility callbacks make and the outputs it
/// announces. The snippets in <doc:AccessibilityAndAutoplay> wire them to
/// SwiftUI and UIKit.
extension MapSyncAppModel {
    // MARK: Outputs

    /// The statuses a screen reader speaks, every one in order: post each
    /// with `UIAccessibility.post(notification: .pageScrolled, argument:)`
    /// (or SwiftUI's `AccessibilityNotification.PageScrolled`); see
    /// ``MapSyncViewModel/accessibilityStatus``.
    public nonisolated var accessibilityStatuses: AsyncThrowingStream<AccessibilityStatus, any Error> {
        core.accessibilityStatus.values()
    }

    /// Autoplay's state at each change (for a play/pause button's label);
    /// see ``MapSyncViewModel/autoplay``.
    public nonisolated var autoplayStates: AsyncThrowingStream<AutoplayState, any Error> {
        core.autoplay.values()
    }

    // MARK: Inputs

    /// VoiceOver's three-finger swipe, SwiftUI's `accessibilityScrollAction`:
    /// one store `next` or `previous`; the map follows at once. See
    /// `MapSyncViewModel.accessibilityScroll(_:)`.
    ///
    /// - Returns: whether the carousel moved (false at an end, where the
    ///   same status is sent again).
    @discardableResult
    public func accessibilityScroll(_ direction: AccessibilityScrollDirection) -> Bool {
        core.accessibilityScroll(direction)
    }

    /// The adjustable trait's increment (`accessibilityIncrement()`,
    /// SwiftUI's `accessibilityAdjustableAction` `.increment`): the next store.
    @discardableResult
    public func accessibilityIncrement() -> Bool {
        core.accessibilityIncrement()
    }

    /// The adjustable trait's decrement: the previous store.
    @discardableResult
    public func accessibilityDecrement() -> Bool {
        core.accessibilityDecrement()
    }

    /// The app's localized status template; see
    /// ``MapSyncViewModel/setStatusTemplate(_:)``.
    public func setStatusTemplate(_ template: StatusTemplate) {
        core.setStatusTemplate(template)
    }

    /// The user's reduced-motion preference (`UIAccessibility.isReduceMotionEnabled`,
    /// SwiftUI's `accessibilityReduceMotion`); see
    /// ``MapSyncViewModel/setReduceMotion(_:)``.
    public func setReduceMotion(_ on: Bool) {
        core.setReduceMotion(on)
    }

    /// The carousel came to rest (`scrollViewDidEndDecelerating`,
    /// `scrollViewDidEndScrollingAnimation`); see ``MapSyncViewModel/didSettle()``.
    public func didSettle() {
        core.didSettle()
    }

    /// A finger touched the carousel (`scrollViewWillBeginDragging`); see
    /// ``MapSyncViewModel/beginDragging()``.
    public func beginDragging() {
        core.beginDragging()
    }

    /// Turns autoplay on with `settings`, or off with nil; see
    /// ``MapSyncViewModel/setAutoplay(_:)``.
    public func setAutoplay(_ settings: AutoplaySettings?) {
        core.setAutoplay(settings)
    }

    /// The user's play (the rotation button); see ``MapSyncViewModel/play()``.
    public func play() {
        core.play()
    }

    /// The user's stop; only ``play()`` ends it. See ``MapSyncViewModel/stop()``.
    public func stop() {
        core.stop()
    }

    /// An outside reason to pause autoplay begins or ends (VoiceOver,
    /// focus, hover, background, off screen, a map gesture); see
    /// ``MapSyncViewModel/setPause(_:_:)``.
    public func setPause(_ reason: AutoplayPauseReason, _ on: Bool) throws(AutoplayError) {
        try core.setPause(reason, on)
    }
}
