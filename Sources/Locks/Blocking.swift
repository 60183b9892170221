import Dispatch

/// Waiting on this thread for async work that runs elsewhere.
public enum Blocking {
    /// Runs `work` on a dispatch queue of its own (its task executor, so
    /// that none of it needs the concurrency runtime's cooperative pool)
    /// and blocks this thread until it ends; returns what it returned or
    /// throws what it threw.
    ///
    /// Safe from any thread, the cooperative pool's included: the waiting
    /// thread is never the one `work` needs. A waiting pool thread is one
    /// fewer for everything else, though, so async code awaits instead;
    /// this is for synchronous interfaces over async work (a view model's
    /// `StoreDirectory` over a catalog that answers over the network).
    public static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached(executorPreference: QueueExecutor(DispatchQueue(label: "carousel.blocking"))) {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The result, handed from the task to the waiting thread; the
    /// semaphore orders the write before the read.
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
