import Clocks
import Observables
import Testing

/// The scheduler on a Swift clock, driven by swift-clocks' `TestClock`:
/// time moves only when a test advances it, so what a debounce emits, and
/// when, is checked without waiting on the wall clock.
@Suite struct ClockSchedulerTests {
    /// A scheduler whose actions are delivered into a stream the test
    /// reads: the test waits for the delivery itself, never for time.
    struct Delivered {
        let scheduler: ClockScheduler
        let clock = TestClock()
        let actions: AsyncStream<@Sendable () -> Void>

        init() {
            let (actions, continuation) = AsyncStream.makeStream(of: (@Sendable () -> Void).self)
            self.actions = actions
            scheduler = ClockScheduler(clock: clock) { continuation.yield($0) }
        }

        /// Runs the next action delivered, waiting for it.
        func runNext() async {
            var iterator = actions.makeAsyncIterator()
            await iterator.next()?()
        }
    }

    @Test func anActionIsDeliveredWhenTheClockReachesItsTimeAndNotBefore() async {
        let delivered = Delivered()
        let ran = Log<Double>()
        let scheduler = delivered.scheduler
        _ = scheduler.schedule(at: 250) { ran.append(scheduler.now) }
        await delivered.clock.advance(by: .milliseconds(249))
        #expect(ran.entries.isEmpty)
        await delivered.clock.advance(by: .milliseconds(1))
        await delivered.runNext()
        #expect(ran.entries == [250])
    }

    @Test func aDebounceOnTheClockEmitsTheLastValueADebounceAfterTheLastInput() async {
        let delivered = Delivered()
        let subject = PublishSubject<Int>()
        let received = Log<(value: Int, at: Double)>()
        let scheduler = delivered.scheduler
        let subscription = subject.asObservable()
            .debounce(250, scheduler: scheduler)
            .subscribe(onNext: { received.append(($0, scheduler.now)) })
        for value in 1...5 {
            subject.onNext(value)
            await delivered.clock.advance(by: .milliseconds(100))
        }
        // 100 ms after the last input: still quiet.
        #expect(received.entries.isEmpty)
        await delivered.clock.advance(by: .milliseconds(150))
        await delivered.runNext()
        subscription.dispose()
        #expect(received.entries.map(\.value) == [5])
        #expect(received.entries.map(\.at) == [650])
    }

    @Test func aCancelledActionIsDroppedAndTheNextOneStillRuns() async {
        let delivered = Delivered()
        let ran = Log<String>()
        let cancelled = delivered.scheduler.schedule(at: 100) { ran.append("cancelled") }
        _ = delivered.scheduler.schedule(at: 200) { ran.append("kept") }
        cancelled.dispose()
        await delivered.clock.advance(by: .milliseconds(300))
        await delivered.runNext()
        #expect(ran.entries == ["kept"])
    }

    @Test func actionsDueAtOneTimeComeInTheOrderTheyWereScheduled() async {
        let delivered = Delivered()
        let ran = Log<Int>()
        for index in 0..<5 { _ = delivered.scheduler.schedule(at: 100) { ran.append(index) } }
        // An earlier one scheduled last still comes first.
        _ = delivered.scheduler.schedule(at: 50) { ran.append(-1) }
        await delivered.clock.advance(by: .milliseconds(100))
        for _ in 0..<6 { await delivered.runNext() }
        #expect(ran.entries == [-1, 0, 1, 2, 3, 4])
    }

    @Test func withoutADeliveryTheActionRunsOnTheWaitingTask() async {
        let clock = TestClock()
        let scheduler = ClockScheduler(clock: clock)
        let (ran, continuation) = AsyncStream.makeStream(of: Double.self)
        _ = scheduler.schedule(after: 40) { continuation.yield(scheduler.now) }
        await clock.advance(by: .milliseconds(40))
        var iterator = ran.makeAsyncIterator()
        #expect(await iterator.next() == 40)
    }
}
