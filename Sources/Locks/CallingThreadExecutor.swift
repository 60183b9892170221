import Dispatch

/// A task executor whose jobs run on the thread that calls ``run()``, until
/// ``stop()``: a thread that waits for async work drives that work itself
/// (``Blocking/wait(_:)``, the CLI's main thread with its one async
/// command). Jobs enqueued from other threads (an event loop resuming a
/// continuation) wake it.
public final class CallingThreadExecutor: TaskExecutor, Sendable {
    /// The jobs waiting, and whether ``stop()`` was called.
    private let state = StateLock<(jobs: [UnownedJob], stopped: Bool)>(([], false))
    /// One signal per job enqueued and one for ``stop()``.
    private let wake = DispatchSemaphore(value: 0)

    public init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        state.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Runs jobs as they come until ``stop()``, on this thread.
    public func run() {
        while true {
            wake.wait()
            let next = state.withLock { state -> UnownedJob?? in
                if !state.jobs.isEmpty { return .some(state.jobs.removeFirst()) }
                return state.stopped ? nil : .some(nil)
            }
            switch next {
            case .some(let job?): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(nil): continue
            case nil: return
            }
        }
    }

    /// Ends ``run()`` once the jobs queued before it have run.
    public func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }
}
