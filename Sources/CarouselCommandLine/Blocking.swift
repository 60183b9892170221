import Dispatch

/// Waiting on this thread for async work: how the command line, a process
/// with one thing to do, runs its async commands on its main thread and
/// meets a synchronous interface (the view model's `StoreDirectory`) with
/// the catalog's async one. Never from a cooperative thread, an event loop
/// or the main actor of an app (docs/concurrency.md): the libraries await
/// instead, and the server has no use for it.
package enum Blocking {
    /// Runs `work` to its end and returns what it returned or throws what
    /// it threw, blocking this thread meanwhile; `work`'s jobs run on this
    /// thread (its task executor is a ``CallingThreadExecutor``), and on
    /// others only where it awaits them (an actor, an event loop's I/O).
    ///
    /// Why not hand `work` to a queue and wait: every waiting thread then
    /// needs a second one for its work. When live sessions looked stores up
    /// through this, each on its own serial queue, 512 of them had all of
    /// libdispatch's 255 worker threads waiting and none left for any work.
    /// A thread that drives its own work always finishes it.
    package static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
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
