import Dispatch
import Locks

/// Runs the catalog's calls that may block off Swift's cooperative thread
/// pool.
///
/// A SQLite catalog call blocks its thread: a lookup for microseconds, an
/// import for seconds, and while an import writes every read waits for it.
/// On the pool's few threads (one per core) that would stall every
/// connection, WebSocket sessions included; here only the requests that
/// need the catalog wait. A PostgreSQL call does not block (it awaits the
/// network), and runs here just the same: the server does not ask which
/// engine it has.
///
/// Each call gets a serial queue of its own, not a shared concurrent one.
/// On Linux a concurrent queue runs its work on the same width-limited
/// worker threads (one per core) that the cooperative pool's jobs run on:
/// two imports blocking two of them left a 2-core server's other requests
/// waiting for the pool to notice and add a thread — `GET /healthz` stalled
/// up to 916 ms, and `GET /lists/{name}/stores` had a p99 of 278 ms while
/// 8 clients imported 22 MiB each. A serial queue targets the overcommit
/// pool, which adds a thread for work that blocks: p99 9.95 ms, slowest
/// 46 ms on the same load (`scripts/benchmark --only server --server-part imports`).
/// An async `body` runs there too, with that queue as its task executor
/// preference (SE-0417), so that its synchronous stretches do.
enum Offload {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let executor = QueueExecutor(DispatchQueue(label: "carousel.catalog", qos: .userInitiated))
        return try await withTaskExecutorPreference(executor) { try await body() }
    }
}
