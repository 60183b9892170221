import Locks

/// A scheduled action that runs at most once, and not at all once disposed:
/// the disposable both schedulers hand back.
///
/// Disposing releases the closure at once, so a cancelled action waiting in
/// a queue (a dispatch block until its deadline, a virtual-time entry until
/// its due time) keeps no operator's state alive. It holds nothing of its
/// scheduler, so a scheduler dropped with actions queued is freed with them;
/// and as a class it sits in an `any Disposable` as one reference, with no
/// box and no weak reference per action.
final class PendingAction: Disposable {
    private let action: StateLock<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) {
        self.action = StateLock(action)
    }

    /// Whether the action has neither run nor been cancelled.
    var isPending: Bool {
        action.withLock { $0 != nil }
    }

    /// Runs the action, unless it already ran or was cancelled.
    func run() {
        take()?()
    }

    func dispose() {
        // Released here, outside the lock: its captures' deinits may schedule
        // or cancel.
        _ = take()
    }

    /// Takes the action out, leaving the slot empty: whoever gets it runs it.
    func take() -> (@Sendable () -> Void)? {
        action.withLock { action in
            defer { action = nil }
            return action
        }
    }
}
