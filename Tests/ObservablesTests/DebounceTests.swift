import Observables
import ObservablesTesting
import Testing

/// `debounce` against RxSwift's semantics, as marble diagrams.
@Suite struct DebounceTests {
    let scheduler = VirtualTimeScheduler()

    private func debounced(_ input: [Recorded<String>], due: Milliseconds = 250) -> [Recorded<String>] {
        scheduler.recordUntilIdle(scheduler.hotObservable(input).debounce(due, scheduler: scheduler))
    }

    @Test func valuesSpacedBeyondTheDueTimeAllPassLate() {
        let events = debounced([.next(0, "A"), .next(300, "B"), .next(600, "C"), .completed(1000)])
        expectEvents(events, [.next(250, "A"), .next(550, "B"), .next(850, "C"), .completed(1000)])
    }

    @Test func aBurstCollapsesToItsLastValue() {
        let events = debounced([.next(0, "A"), .next(100, "B"), .next(200, "C"), .next(449, "D"), .completed(1000)])
        expectEvents(events, [.next(699, "D"), .completed(1000)])
    }

    @Test func completionFlushesThePendingValueAtTheCompletionTime() {
        let events = debounced([.next(0, "A"), .next(100, "B"), .completed(200)])
        expectEvents(events, [.next(200, "B"), .completed(200)])
    }

    @Test func completionWithNothingPendingOnlyCompletes() {
        let events = debounced([.next(0, "A"), .completed(400)])
        expectEvents(events, [.next(250, "A"), .completed(400)])
    }

    @Test func errorDropsThePendingValue() {
        let events = debounced([.next(0, "A"), .next(300, "B"), .error(400, TestError("boom"))])
        expectEvents(events, [.next(250, "A"), .error(400, TestError("boom"))])
    }

    @Test func disposeDropsThePendingValueAndCancelsTheTimer() {
        let input = scheduler.hotObservable([.next(0, "A"), .next(300, "B"), .completed(1000)])
        let events = scheduler.recordUntilIdle(input.debounce(250, scheduler: scheduler), disposeAt: 400)
        expectEvents(events, [.next(250, "A")])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func disposeAtTheInstantTheTimerFallsDueWins() {
        // Disposal is an input: at equal times it comes before the timer.
        let input = scheduler.hotObservable([.next(0, "A")])
        let events = scheduler.recordUntilIdle(input.debounce(250, scheduler: scheduler), disposeAt: 250)
        expectEvents(events, [])
    }

    @Test func zeroDuePassesValuesThroughSynchronously() {
        let subject = PublishSubject<String>()
        let recorder = EventRecorder<String>(scheduler: scheduler)
        recorder.record(subject.asObservable().debounce(0, scheduler: scheduler))
        subject.onNext("A")
        // Received before any virtual time passes, nothing left scheduled.
        expectEvents(recorder.events, [.next(0, "A")])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anInputAtTheInstantTheTimerFallsDueRestartsTheWait() {
        // An input at time T is processed before a timer due at T,
        // so B at 250 silences A's timer due at 250.
        let events = debounced([.next(0, "A"), .next(250, "B"), .completed(1000)])
        expectEvents(events, [.next(500, "B"), .completed(1000)])
    }

    @Test func anInputScheduledAfterTheTimerStillComesFirstAtTheSameInstant() {
        // The lanes, not the scheduling order, decide: B is scheduled after
        // A's timer was armed, for the very instant the timer falls due.
        let subject = PublishSubject<String>()
        let recorder = scheduler.record(subject.asObservable().debounce(250, scheduler: scheduler))
        subject.onNext("A")
        _ = scheduler.schedule(at: 250, lane: .input) { subject.onNext("B") }
        scheduler.run()
        expectEvents(recorder.events, [.next(500, "B")])
    }

    @Test func completionAtTheInstantTheTimerFallsDueEmitsOnceThenCompletes() {
        let events = debounced([.next(0, "A"), .completed(250)])
        expectEvents(events, [.next(250, "A"), .completed(250)])
    }

    @Test func errorAtTheInstantTheTimerFallsDueDropsTheValue() {
        let events = debounced([.next(0, "A"), .error(250, TestError())])
        expectEvents(events, [.error(250, TestError())])
    }

    @Test func twoValuesAtTheSameInstantEmitTheLaterOne() {
        let events = debounced([.next(100, "A"), .next(100, "B"), .completed(1000)])
        expectEvents(events, [.next(350, "B"), .completed(1000)])
    }

    @Test func aSteadyStreamOfFramesKeepsOneTimerArmed() {
        // 60 frames a second for 10 s, then silence: the camera moves once,
        // `due` after the last frame, and the lazily re-armed timer never
        // has company in the queue.
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>(scheduler: scheduler)
        recorder.record(subject.asObservable().debounce(250, scheduler: scheduler))
        let frame = 1000.0 / 60
        var maxPending = 0
        for index in 0..<600 {
            scheduler.advance(to: Double(index) * frame)
            subject.onNext(index)
            maxPending = max(maxPending, scheduler.pendingCount)
        }
        scheduler.run()
        expectEvents(recorder.events, [.next(599 * frame + 250, 599)])
        #expect(maxPending == 1)
    }

    @Test(arguments: (1...24).map { 0x5EED_0000 + $0 } as [UInt64])
    func lazyRearmingMatchesTheOneTimerPerValueDefinition(seed: UInt64) {
        // Random timelines, gaps drawn below, at and above `due`: debounce
        // must emit exactly what the definition says (RxSwift semantics).
        var random = SeededTimeline(seed: seed)
        let due: Milliseconds = 250
        let timeline = random.timeline(count: 300, due: due)
        let events = debounced(timeline.inputs, due: due)
        expectEvents(events, DebounceDefinition.expected(timeline, due: due), "seed \(seed)")
    }
}
