import Locks

/// Holds one replaceable disposable: setting a new one disposes the previous
/// (RxSwift's `SerialDisposable`).
///
/// Once disposed, whatever is assigned later is disposed at once.
public final class SerialDisposable: Disposable {
    private struct State {
        var current: (any Disposable)?
        var isDisposed = false
    }

    private let state = StateLock(State())

    /// Creates an empty serial disposable.
    public init() {}

    /// Whether the serial disposable has been disposed.
    public var isDisposed: Bool {
        state.withLock { $0.isDisposed }
    }

    /// The current disposable. Assigning disposes the previous one, or the
    /// new one itself if this serial disposable is already disposed.
    public var disposable: (any Disposable)? {
        get { state.withLock { $0.current } }
        set {
            let replaced: (any Disposable)? = state.withLock { state in
                if state.isDisposed { return newValue }
                defer { state.current = newValue }
                return state.current
            }
            replaced?.dispose()
        }
    }

    public func dispose() {
        let current: (any Disposable)? = state.withLock { state in
            guard !state.isDisposed else { return nil }
            state.isDisposed = true
            defer { state.current = nil }
            return state.current
        }
        current?.dispose()
    }
}
