import Dispatch
import Synchronization

/// Runs `body` to its end from a thread that is not the cooperative pool's
/// (libFuzzer's), and returns what it returned or threw: the server's
/// async paths, driven from a synchronous fuzz target.
public func runBlocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}
