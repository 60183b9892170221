import Synchronization

/// Admits at most `limit` requests of one kind (imports, simulations) at
/// once; the next one is refused at once with 503 and `Retry-After`, before
/// it reads its body.
///
/// Why refuse rather than queue: each admitted import keeps two threads
/// busy (reading, writing) and a temporary file of up to the body limit;
/// 8 imports at once on a 2-core machine made a `GET /lists/kr/stores` wait
/// 22.5 s (issue 22). A refused client retries after a second; the reads,
/// which never pass a gate, keep their cores.
final class WorkGate: Sendable {
    /// What the 503 names: "imports", "simulations".
    let work: String
    let limit: Int
    private let running = Mutex(0)

    init(_ work: String, limit: Int) {
        self.work = work
        self.limit = max(1, limit)
    }

    /// How many are admitted now.
    var count: Int { running.withLock { $0 } }

    /// Runs `body` if a place is free, else throws the 503.
    func run<T>(_ body: () async throws -> T) async throws -> T {
        let admitted = running.withLock { running in
            guard running < limit else { return false }
            running += 1
            return true
        }
        guard admitted else {
            throw APIError.busy("\(limit) \(work) are running, the most this server runs at once; retry in a moment")
        }
        defer { running.withLock { $0 -= 1 } }
        return try await body()
    }
}
