import Dispatch
import Locks

/// A task executor whose jobs run on the thread that calls ``run()``, until
/// ``stop()``: a thread that waits for async work drives that work itself
/// (``Blocking/wait(_:)``, the CLI's main thread with its one async
/// command). Jobs enqueued from other threads (an event loop resuming a
/// continuation) wake it.
package final class CallingThreadExecutor: TaskExecutor, Sendable {
    /// The jobs waiting, oldest first.
    private let jobs = StateLock<[UnownedJob]>([])
    /// One signal per job enqueued and one for ``stop()``.
    private let wake = DispatchSemaphore(value: 0)

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        jobs.withLock { $0.append(job) }
        wake.signal()
    }

    /// Runs jobs as they come until ``stop()``, on this thread.
    ///
    /// Each wake-up pairs with one signal, a job's or the stop's: one that
    /// finds no job left is the stop's, after every job queued before it.
    package func run() {
        while true {
            wake.wait()
            guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// Ends ``run()`` once the jobs queued before it have run.
    package func stop() {
        wake.signal()
    }
}
