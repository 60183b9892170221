import Dispatch
import Observables
import ObservablesTesting
import Testing

/// The type-erased scheduler: the same clock and order as what it wraps,
/// and the main-queue one for apps.
@Suite struct AnySchedulerTests {
    @Test func anErasedVirtualSchedulerKeepsItsClockAndOrder() {
        let virtual = VirtualTimeScheduler()
        let erased = AnyEventScheduler(virtual)
        let ran = Log<String>()
        _ = erased.schedule(at: 20) { ran.append("b@\(virtual.now)") }
        _ = erased.schedule(at: 10) { ran.append("a@\(virtual.now)") }
        let cancelled = erased.schedule(at: 15) { ran.append("cancelled") }
        cancelled.dispose()
        virtual.advance(by: 15)
        #expect(erased.now == 15)
        virtual.run()
        #expect(ran.entries == ["a@10.0", "b@20.0"])
    }

    @Test func erasingTwiceKeepsTheOriginalScheduler() {
        let virtual = VirtualTimeScheduler()
        let twice = AnyEventScheduler(AnyEventScheduler(virtual))
        #expect(twice.base as? VirtualTimeScheduler === virtual)
    }

    @Test func aDebounceOverAnErasedSchedulerMatchesTheUnerasedOne() {
        func run(_ scheduler: some EventScheduler, _ virtual: VirtualTimeScheduler) -> [Recorded<Int>] {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>(scheduler: virtual)
            recorder.record(subject.asObservable().debounce(50, scheduler: scheduler))
            for (time, value) in [(0.0, 1), (30, 2), (100, 3), (200, 4)] {
                _ = virtual.schedule(at: time, lane: .input) { subject.onNext(value) }
            }
            virtual.run()
            return recorder.events
        }
        let plain = VirtualTimeScheduler(), erased = VirtualTimeScheduler()
        let expected = run(plain, plain)
        #expect(expected.count == 3)
        expectEvents(run(AnyEventScheduler(erased), erased), expected)
    }

    @Test func theMainSchedulerRunsItsActionsOnTheMainQueue() async throws {
        let onMain = Log<Bool>()
        _ = AnyEventScheduler.main.schedule(after: 1) {
            // Traps if the action runs anywhere but the main queue.
            dispatchPrecondition(condition: .onQueue(.main))
            onMain.append(true)
        }
        // Generous: up to 10 s on a loaded machine.
        for _ in 0..<1_000 where onMain.entries.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(onMain.entries == [true])
        #expect(AnyEventScheduler.main.base as? RealTimeScheduler === RealTimeScheduler.main)
    }
}
