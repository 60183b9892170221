/// A scheduler of any concrete type behind one concrete type: what a type
/// that is not generic over its scheduler stores.
///
/// `MapSyncViewModel` takes one so that apps write `MapSyncViewModel`, not
/// `MapSyncViewModel<RealTimeScheduler>`, and tests swap in a
/// `VirtualTimeScheduler` without changing the type. Storing `any EventScheduler`
/// instead would leave every operator built on it (`debounce`) unspecialized
/// on the per-event path, which this module measured at about 6× the cost per
/// event; this wrapper is a concrete type, and only the two calls into the
/// base go through its witness table.
///
/// ```swift
/// let scheduler = AnyEventScheduler(RealTimeScheduler.main)   // an app
/// let scheduler = AnyEventScheduler(VirtualTimeScheduler())    // a test
/// ```
public struct AnyEventScheduler: EventScheduler {
    /// The wrapped scheduler.
    public let base: any EventScheduler

    /// Wraps `base`; wrapping an `AnyEventScheduler` again keeps the one inside.
    public init(_ base: some EventScheduler) {
        if let erased = base as? AnyEventScheduler {
            self = erased
        } else {
            self.base = base
        }
    }

    /// The wrapped scheduler's time.
    public var now: Milliseconds { base.now }

    /// Schedules `action` on the wrapped scheduler.
    public func schedule(at time: Milliseconds, _ action: @escaping @Sendable () -> Void) -> any Disposable {
        base.schedule(at: time, action)
    }
}

extension AnyEventScheduler {
    /// The main queue on the wall clock, ``RealTimeScheduler/main``: what an
    /// app's view model debounces on, so that its outputs arrive on the main
    /// thread, where UIKit and MapKit must be called.
    public static var main: AnyEventScheduler { AnyEventScheduler(RealTimeScheduler.main) }
}
