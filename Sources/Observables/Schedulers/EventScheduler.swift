/// Runs actions at given times on a clock of its own; time-based operators
/// (`debounce`) take one as a parameter and never reach for a global.
///
/// Contract for implementations: `schedule` never runs the action
/// synchronously, nor calls back into its caller — operators may call it
/// while holding their own lock. Actions due at the same time run in the
/// order they were scheduled.
public protocol EventScheduler: Sendable {
    /// The current time on this scheduler's clock.
    var now: Milliseconds { get }

    /// Schedules `action` to run at `time` (at once, if `time` is already
    /// past); dispose the result to cancel it.
    func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable
}

extension EventScheduler {
    /// Schedules `action` to run `delay` after `now`; dispose the result to cancel it.
    public func schedule(after delay: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        schedule(at: now + delay, action)
    }
}
