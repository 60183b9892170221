import Dispatch
import Synchronization
import Testing
import WorkLanes

#if canImport(Glibc)
    import Glibc
#endif

/// The lanes where async callers run blocking work: what a call returns and
/// throws, that the work runs on the lane's threads and never more of them
/// than the bound, in order, and at the lane's priority.
@Suite struct WorkLaneTests {
    struct Failure: Error, Equatable {}

    /// What the jobs of the bound test count, shared with their tasks.
    final class Counts: Sendable {
        let state = Mutex((now: 0, most: 0, waiting: 0))
    }

    @Test func runReturnsWhatTheWorkReturnsAndThrowsWhatItThrows() async throws {
        let lane = WorkLane(name: "test.returns", threads: 1, priority: .normal)
        #expect(try await lane.run { 6 * 7 } == 42)
        await #expect(throws: Failure.self) { try await lane.run { throw Failure() } }
    }

    /// Each caller resumes as soon as its result is handed back, while the
    /// lane's thread may still hold the job: the work closure must be let
    /// go first (a caller's `withoutActuallyEscaping` traps otherwise, as
    /// 26 of 40 parallel `carousel import` processes did).
    @Test func manyCallsAtOnceEachGetTheirOwnResult() async throws {
        let lane = WorkLane(name: "test.many", threads: 2, priority: .normal)
        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for call in 0..<2_000 {
                group.addTask { (call, try await lane.run { call * 2 }) }
            }
            for try await (call, result) in group { #expect(result == call * 2) }
        }
    }

    @Test func workMayChangeTheCallersStateAsASynchronousCallWould() async throws {
        let lane = WorkLane(name: "test.state", threads: 2, priority: .normal)
        var seen: [Int] = []
        try await lane.run {
            for row in 0..<5 { seen.append(row) }
        }
        #expect(seen == [0, 1, 2, 3, 4])
    }

    @Test func workRunsOnTheLanesThreadNotTheCallers() async throws {
        let lane = WorkLane(name: "test.thread", threads: 1, priority: .normal)
        let caller = pthread_self()
        let worker = try await lane.run { pthread_self() }
        #expect(pthread_equal(caller, worker) == 0)
        #expect(WorkLane.current == nil)
        let current = try await lane.run { WorkLane.current }
        #expect(current?.lane === lane && current?.thread == 0)
        // One thread: every call lands on it.
        #expect(pthread_equal(worker, try await lane.run { pthread_self() }) != 0)
    }

    @Test func neverMoreThreadsThanTheBoundAndEveryJobRuns() async throws {
        let lane = WorkLane(name: "test.bound", threads: 3, priority: .normal)
        let running = Counts()
        let gate = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for job in 0..<24 {
                group.addTask {
                    try await lane.run {
                        running.state.withLock {
                            $0.now += 1; $0.most = max($0.most, $0.now)
                        }
                        // Jobs 0, 1 and 2 hold their threads until the gate opens.
                        if job < 3 {
                            running.state.withLock { $0.waiting += 1 }
                            gate.wait()
                        }
                        running.state.withLock { $0.now -= 1 }
                        return job
                    }
                }
            }
            // Once all three wait, every thread of the lane is held: the
            // other jobs have run or wait in the queue.
            while running.state.withLock({ $0.waiting }) < 3 { await Task.yield() }
            #expect(running.state.withLock { $0.now } == 3)
            for _ in 0..<3 { gate.signal() }
            var done = Set<Int>()
            for try await job in group { done.insert(job) }
            #expect(done == Set(0..<24))
        }
        #expect(running.state.withLock { $0.most } == 3)
        #expect(lane.load.threads == 3)
    }

    @Test func oneThreadRunsJobsInTheOrderTheyCame() async {
        let lane = WorkLane(name: "test.order", threads: 1, priority: .normal)
        let order = Mutex<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        lane.enqueue { gate.wait() }
        for job in 0..<100 { lane.enqueue { order.withLock { $0.append(job) } } }
        lane.enqueue { finished.signal() }
        gate.signal()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                finished.wait()
                continuation.resume()
            }
        }
        #expect(order.withLock { $0 } == Array(0..<100))
    }

    #if canImport(Glibc)
        @Test func aLowLaneRunsAtNiceNineteenAndANormalOneAtTheProcesssNice() async throws {
            let own = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            let low = WorkLane(name: "test.low", threads: 1, priority: .low)
            let normal = WorkLane(name: "test.normal", threads: 1, priority: .normal)
            // Not behind until a server asks (a command's import is its
            // user's foreground work).
            WorkLane.putLowLanesBehind()
            #expect(try await low.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } == 19)
            #expect(try await normal.run { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) } == own)
        }
    #endif
}
