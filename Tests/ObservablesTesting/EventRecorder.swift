import Locks
import Observables

/// Records every event it observes with the virtual time it arrived at
/// (RxTest's `TestableObserver`).
public final class EventRecorder<Value: Sendable>: Sendable {
    private let scheduler: VirtualTimeScheduler
    private let recorded = StateLock<[Recorded<Value>]>([])
    private let subscription = SerialDisposable()

    /// A recorder stamping events with `scheduler.now`.
    public init(scheduler: VirtualTimeScheduler) {
        self.scheduler = scheduler
    }

    /// Everything recorded so far, in order of arrival.
    public var events: [Recorded<Value>] {
        recorded.withLock { $0 }
    }

    /// The values recorded so far, without times.
    public var values: [Value] {
        events.compactMap(\.event.element)
    }

    /// An observer recording into this recorder.
    ///
    /// It holds the recorder weakly: the recorder holds its subscription,
    /// the subscription the observer, so a strong capture made a cycle that
    /// leaked every recorder whose source never ended (LeakSanitizer).
    public var observer: Observer<Value> {
        Observer { [weak self] event in
            guard let self else { return }
            let now = scheduler.now
            recorded.withLock { $0.append(Recorded(time: now, event: event)) }
        }
    }

    /// Subscribes this recorder to `source` now; `dispose()` ends the subscription.
    public func record(_ source: EventStream<Value>) {
        subscription.disposable = source.subscribe(observer)
    }

    /// Ends the subscription made by `record(_:)`.
    public func dispose() {
        subscription.dispose()
    }
}
