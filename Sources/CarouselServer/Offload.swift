import Dispatch

/// Runs the catalog's blocking calls off Swift's cooperative thread pool.
///
/// A catalog call blocks its thread (SQLite, one connection): a lookup for
/// microseconds, an import for seconds, and while an import writes every
/// read waits for it. On the pool's few threads (one per core) that would
/// stall every connection, WebSocket sessions included; on this queue only
/// the requests that need the catalog wait.
enum Offload {
    private static let queue = DispatchQueue(label: "carousel.catalog", qos: .userInitiated, attributes: .concurrent)

    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try body() })
            }
        }
    }
}
