import Locks

/// A disposable that runs a closure once, on the first `dispose()`.
///
/// The closure is released as soon as it has run, so whatever it captured
/// (an operator's state, an upstream subscription) is freed even if the
/// disposable itself is kept around.
public final class AnonymousDisposable: Disposable {
    private let action: StateLock<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` on its first `dispose()`.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = StateLock(action)
    }

    /// Whether `dispose()` has been called.
    public var isDisposed: Bool {
        action.withLock { $0 == nil }
    }

    public func dispose() {
        // Take the closure under the lock, run it outside: it may call back
        // into anything, including this disposable.
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}
