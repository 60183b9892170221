import Observables
import Testing

/// The real-time scheduler, tolerantly: only "eventually, and in order".
@Suite struct RealTimeSchedulerTests {
    @Test func aDebounceOverARealQueueDeliversTheLastValue() async throws {
        let scheduler = RealTimeScheduler(label: "RealTimeSchedulerTests")
        let subject = PublishSubject<Int>()
        let received = Log<Int>()
        let subscription = subject.asObservable()
            .debounce(20, scheduler: scheduler)
            .subscribe(onNext: received.append)
        for value in 1...5 {
            subject.onNext(value)
        }
        // Generous: up to 10 s for a 20 ms debounce on a loaded machine.
        for _ in 0..<1_000 where received.entries.last != 5 {
            try await Task.sleep(for: .milliseconds(10))
        }
        subscription.dispose()
        let values = received.entries
        #expect(values.last == 5)
        #expect(values == values.sorted(), "emitted out of order: \(values)")
    }

    @Test func aCancelledActionNeverRuns() async throws {
        let scheduler = RealTimeScheduler(label: "RealTimeSchedulerTests.cancel")
        let ran = Log<String>()
        // Due 100 ms apart, and long after the dispose: a loaded machine (or a
        // ThreadSanitizer build) can take more than 10 ms to get from the
        // schedule to the dispose, and the action would run first.
        let cancelled = scheduler.schedule(after: 100) { ran.append("cancelled") }
        _ = scheduler.schedule(after: 200) { ran.append("kept") }
        cancelled.dispose()
        for _ in 0..<1_000 where ran.entries.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(ran.entries == ["kept"])
    }
}
