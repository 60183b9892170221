import Observables

extension VirtualTimeScheduler {
    /// A hot observable that sends `events` at their times on the input lane
    /// (RxTest's `createHotObservable`): at equal times they come before any
    /// timer (RxSwift's test scheduler order), and a subscriber sees only what is sent
    /// after it subscribed.
    public func hotObservable<Value: Sendable>(_ events: [Recorded<Value>]) -> EventStream<Value> {
        let subject = PublishSubject<Value>()
        for recorded in events {
            _ = schedule(at: recorded.time, lane: .input) { subject.on(recorded.event) }
        }
        return subject.asObservable()
    }

    /// Subscribes a new recorder to `source` now, and disposes it at
    /// `disposeTime` if given (on the input lane: before a timer due then).
    public func record<Value: Sendable>(
        _ source: EventStream<Value>,
        disposeAt disposeTime: Milliseconds? = nil
    ) -> EventRecorder<Value> {
        let recorder = EventRecorder<Value>(scheduler: self)
        recorder.record(source)
        if let disposeTime {
            _ = schedule(at: disposeTime, lane: .input) { recorder.dispose() }
        }
        return recorder
    }

    /// Records `source` from now, runs until nothing is pending, and returns
    /// the recorded events: one marble diagram in one call.
    public func recordUntilIdle<Value: Sendable>(
        _ source: EventStream<Value>,
        disposeAt disposeTime: Milliseconds? = nil
    ) -> [Recorded<Value>] {
        let recorder = record(source, disposeAt: disposeTime)
        run()
        return recorder.events
    }
}
