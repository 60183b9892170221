import Dispatch

/// Waiting on this thread for async work.
public enum Blocking {
    /// Runs `work` to its end and returns what it returned or throws what
    /// it threw, blocking this thread meanwhile; `work`'s jobs run on this
    /// thread (its task executor is a ``CallingThreadExecutor``), and on
    /// others only where it awaits them (an actor, an event loop's I/O).
    ///
    /// Why not hand `work` to a queue and wait: every waiting thread then
    /// needs a second one for its work. Live sessions look stores up
    /// through this, each on its own serial queue; with 512 sessions,
    /// libdispatch's 255 worker threads were all waiting here and none was
    /// left for any work: the sessions hung, and the server's graceful stop
    /// with them (`scripts/benchmark --only server`, the sessions ramp). A
    /// thread that drives its own work always finishes it.
    ///
    /// Safe from any thread, the cooperative pool's included; a waiting pool
    /// thread is one fewer for everything else, though, so async code awaits
    /// instead: this is for synchronous interfaces over async work (a view
    /// model's `StoreDirectory` over a catalog that answers over the network).
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let executor = CallingThreadExecutor()
        Task.detached(executorPreference: executor) {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            executor.stop()
        }
        executor.run()
        return try box.result!.get()
    }

    /// The result, handed from the task to the waiting thread: the task's
    /// last job runs on that thread, before ``CallingThreadExecutor/run()``
    /// returns.
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}

/// A task executor that runs its jobs on one serial dispatch queue: async
/// work whose synchronous stretches may block (a SQLite call) runs there
/// rather than on the cooperative pool's few threads (SE-0417's task
/// executor preference).
public final class QueueExecutor: TaskExecutor {
    private let queue: DispatchQueue

    public init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
