import Locks

/// Stands between a source and an outside observer and enforces the Rx
/// grammar: nothing after a terminal event, nothing after `dispose()`
/// (RxSwift's `AnonymousObservableSink` and `ObserverBase`).
///
/// It is also the subscription handed back to the user. Disposing it — or a
/// terminal event — drops both the observer and the upstream subscription,
/// so a disposable kept around after disposal retains nothing.
@usableFromInline
final class GrammarGuard<Element: Sendable>: Disposable {
    @usableFromInline
    struct State {
        /// `nil` once stopped: after a terminal event or `dispose()`.
        @usableFromInline var downstream: Observer<Element>?
        @usableFromInline var upstream: (any Disposable)?

        @inlinable
        init(downstream: Observer<Element>? = nil, upstream: (any Disposable)? = nil) {
            self.downstream = downstream
            self.upstream = upstream
        }
    }

    @usableFromInline
    let state: StateLock<State>

    @inlinable
    init(_ downstream: Observer<Element>) {
        state = StateLock(State(downstream: downstream))
    }

    /// Subscribes `observer` to `run` through a new guard, and returns the guard.
    @inlinable
    static func subscribe(
        _ observer: Observer<Element>,
        to run: (Observer<Element>) -> any Disposable
    ) -> GrammarGuard {
        let guarded = GrammarGuard(observer)
        let observer = Observer<Element> { event in guarded.on(event) }
        guarded.attach(run(observer))
        return guarded
    }

    @inlinable
    func on(_ event: Event<Element>) {
        let (downstream, upstream): (Observer<Element>?, (any Disposable)?) = state.withLock { state in
            guard event.isTerminal else { return (state.downstream, nil) }
            defer { state = State() }
            return (state.downstream, state.upstream)
        }
        // Deliver outside the lock: the observer may dispose this very subscription.
        downstream?.on(event)
        upstream?.dispose()
    }

    /// Keeps the upstream subscription, or disposes it at once if the
    /// sequence already stopped while it was being set up (a synchronous
    /// source completes inside `subscribe`).
    @inlinable
    func attach(_ upstream: any Disposable) {
        let isStopped = state.withLock { state in
            if state.downstream == nil { return true }
            state.upstream = upstream
            return false
        }
        if isStopped {
            upstream.dispose()
        }
    }

    @inlinable
    func dispose() {
        let upstream = state.withLock { state in
            defer { state = State() }
            return state.upstream
        }
        upstream?.dispose()
    }
}
