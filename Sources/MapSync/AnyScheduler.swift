import Observables

/// A scheduler of any concrete type behind one concrete type.
///
/// The view model is not generic over its scheduler (so users write
/// `MapSyncViewModel`, not `MapSyncViewModel<RealTimeScheduler>`), yet its
/// `debounce` must be specialized at compile time: handing it an existential
/// would leave the per-frame path unspecialized, and the Observables module
/// measured that at ~6× the cost per event. This wrapper is concrete; only
/// the two calls into the base go through its witness table.
struct AnyScheduler: Scheduler {
    let base: any Scheduler

    init(_ base: some Scheduler) {
        self.base = base
    }

    var now: Milliseconds { base.now }

    func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        base.schedule(at: time, action)
    }
}
