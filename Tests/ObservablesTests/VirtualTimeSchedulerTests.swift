import Observables
import TestSupport
import Testing

@Suite struct VirtualTimeSchedulerTests {
    let scheduler = VirtualTimeScheduler()
    /// What ran, as "label@time".
    let log = Log<String>()

    private func entry(_ label: String) -> @Sendable () -> Void {
        { [scheduler, log] in log.append("\(label)@\(Int(scheduler.now))") }
    }

    private var ran: [String] { log.entries }

    @Test func actionsRunInDueTimeThenSchedulingOrder() {
        _ = scheduler.schedule(at: 30, entry("c"))
        _ = scheduler.schedule(at: 10, entry("a"))
        _ = scheduler.schedule(at: 20, entry("b1"))
        _ = scheduler.schedule(at: 20, entry("b2"))
        scheduler.run()
        #expect(ran == ["a@10", "b1@20", "b2@20", "c@30"])
        #expect(scheduler.now == 30)
    }

    @Test func anInputRunsBeforeATimerDueAtTheSameInstant() {
        _ = scheduler.schedule(at: 250, lane: .timer, entry("timer"))
        _ = scheduler.schedule(at: 250, lane: .input, entry("input"))
        _ = scheduler.schedule(at: 200, lane: .timer, entry("early timer"))
        scheduler.run()
        #expect(ran == ["early timer@200", "input@250", "timer@250"])
    }

    @Test func advanceRunsOnlyWhatIsDueAndStopsTheClockAtTheTarget() {
        _ = scheduler.schedule(after: 100, entry("a"))
        _ = scheduler.schedule(after: 300, entry("b"))
        scheduler.advance(by: 150)
        #expect(ran == ["a@100"])
        #expect(scheduler.now == 150)
        scheduler.advance(to: 300)
        #expect(ran == ["a@100", "b@300"])
        #expect(scheduler.pendingCount == 0)
    }

    @Test func anActionScheduledByAnActionRunsInTheSamePassIfDue() {
        let inner = entry("inner")
        let scheduler = self.scheduler
        _ = scheduler.schedule(at: 10) {
            _ = scheduler.schedule(after: 5, inner)
            _ = scheduler.schedule(after: 500, inner)
        }
        scheduler.advance(to: 100)
        #expect(ran == ["inner@15"])
        #expect(scheduler.pendingCount == 1)
    }

    @Test func anActionScheduledInThePastRunsNow() {
        scheduler.advance(to: 100)
        _ = scheduler.schedule(at: 40, entry("late"))
        scheduler.advance()
        #expect(ran == ["late@100"])
    }

    @Test func aCancelledActionNeverRunsAndStaleCancelsDoNotHitReusedSlots() {
        let cancelled = scheduler.schedule(at: 10, entry("cancelled"))
        let ranFirst = scheduler.schedule(at: 5, entry("first"))
        cancelled.dispose()
        scheduler.run()
        // Both slots are free again; new actions reuse them.
        _ = scheduler.schedule(at: 20, entry("second"))
        _ = scheduler.schedule(at: 20, entry("third"))
        cancelled.dispose()
        ranFirst.dispose()
        scheduler.run()
        #expect(ran == ["first@5", "second@20", "third@20"])
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func manyRandomActionsRunSortedByTimeLaneAndOrder(seed: UInt64) {
        // Exercises the heap: random times (with many ties) and lanes, some
        // cancelled; the run order must be the sorted order of the survivors.
        var random = SplitMix64(seed: seed)
        let order = Log<Int>()
        var expected: [(time: Double, lane: UInt8, index: Int)] = []
        for index in 0..<2_000 {
            let time = Double(Int.random(in: 0..<200, using: &random))
            let lane: VirtualTimeScheduler.Lane = Bool.random(using: &random) ? .input : .timer
            let action = scheduler.schedule(at: time, lane: lane) { order.append(index) }
            if Int.random(in: 0..<10, using: &random) == 0 {
                action.dispose()
            } else {
                expected.append((time, lane.rawValue, index))
            }
        }
        scheduler.run()
        let sorted = expected.sorted { ($0.time, $0.lane, $0.index) < ($1.time, $1.lane, $1.index) }.map(\.index)
        #expect(order.entries == sorted, "seed \(seed)")
    }

    // MARK: advance(toInputAt:)

    @Test func anInputFedAtATimersInstantIsSeenAfterQueuedInputsAndBeforeThatTimer() {
        _ = scheduler.schedule(at: 250, lane: .timer, entry("timer"))
        _ = scheduler.schedule(at: 250, lane: .input, entry("queued input"))
        _ = scheduler.schedule(at: 200, lane: .timer, entry("early timer"))
        scheduler.advance(toInputAt: 250)
        #expect(scheduler.now == 250)
        entry("fed input")()
        #expect(scheduler.pendingCount == 1, "the timer due at 250 waits for the next advance")
        scheduler.advance()
        #expect(ran == ["early timer@200", "queued input@250", "fed input@250", "timer@250"])
    }

    @Test func inputsFedAtTheSameInstantAllComeBeforeItsTimers() {
        _ = scheduler.schedule(at: 100, entry("timer"))
        scheduler.advance(toInputAt: 100)
        entry("first")()
        scheduler.advance(toInputAt: 100)
        entry("second")()
        scheduler.run()
        #expect(ran == ["first@100", "second@100", "timer@100"])
    }

    @Test func aTimerScheduledByAFedInputRunsOnLaterAdvances() {
        // Nothing is queued when the input comes: the lock-free path must
        // still see the timer the input schedules.
        scheduler.advance(toInputAt: 10)
        _ = scheduler.schedule(after: 5, entry("timer"))
        scheduler.advance(toInputAt: 14)
        #expect(ran.isEmpty)
        scheduler.advance(toInputAt: 15)
        #expect(ran.isEmpty, "a timer due at the input's instant waits for it")
        scheduler.advance(toInputAt: 16)
        #expect(ran == ["timer@15"])
        #expect(scheduler.now == 16)
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func feedingByAdvanceToInputAtOrdersLikeQueueingEachInput(seed: UInt64) {
        // The same stream fed both ways — each input queued on the input lane
        // then `advance(to:)`, or `advance(toInputAt:)` then sent — must run
        // everything in the same order at the same times. Inputs come at
        // increasing times on a 10 ms grid and schedule timers (some
        // cancelled) on the same grid, so timers often fall due exactly at
        // an input's instant.
        var random = SplitMix64(seed: seed)
        var times: [Milliseconds] = []
        var time: Milliseconds = 0
        for _ in 0..<500 {
            time += Double(10 * Int.random(in: 1...4, using: &random))
            times.append(time)
        }
        let delays = times.indices.map { _ in Double(10 * Int.random(in: 0...6, using: &random)) }
        let cancels = times.indices.map { _ in Int.random(in: 0..<5, using: &random) == 0 }

        func play(queueingInputs: Bool) -> [String] {
            let scheduler = VirtualTimeScheduler()
            let log = Log<String>()
            let held = Log<any Disposable>()
            for (index, time) in times.enumerated() {
                let input: @Sendable () -> Void = {
                    log.append("input \(index)@\(scheduler.now)")
                    let timer = scheduler.schedule(after: delays[index]) { log.append("timer \(index)@\(scheduler.now)") }
                    // Cancel the previous input's timer, as debounce used to.
                    if cancels[index], index > 0 { held.entries[index - 1].dispose() }
                    held.append(timer)
                }
                if queueingInputs {
                    _ = scheduler.schedule(at: time, lane: .input, input)
                    scheduler.advance(to: time)
                } else {
                    scheduler.advance(toInputAt: time)
                    input()
                }
            }
            scheduler.run()
            return log.entries
        }

        let queued = play(queueingInputs: true)
        let fed = play(queueingInputs: false)
        #expect(queued.count > times.count, "seed \(seed): no timer ran")
        #expect(fed == queued, "seed \(seed)")
    }
}
