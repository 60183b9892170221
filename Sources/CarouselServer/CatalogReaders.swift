import Locks
import StoreCatalog

/// Handles of their own for the read endpoints, so that a lookup costs a
/// lookup.
///
/// A SQLite ``Catalog`` serializes its calls on one connection. Sent
/// through ``Offload`` to a thread, then queued behind every other
/// request's call on that connection, `GET /stores/near` spent more time
/// handing over and waiting than searching: 31 % of the constant route's
/// requests per second under wrk, p99 15 ms (BENCHMARKS.md, server). Here
/// each read takes an idle reader (``CatalogEngine/concurrentReader()``,
/// opening one more when all are busy, kept for the next) and runs on the
/// calling task's thread: in WAL mode a reader never waits for the writer,
/// so a read is microseconds of work like any other, and the readers in
/// use at once are at most the cooperative pool's threads, one per core.
/// A PostgreSQL catalog is its own reader: its pool gives each call a
/// connection.
///
/// A SQLite reader shares one read transaction between the reads of a
/// millisecond (``Catalog/serverReadSnapshotLifetime``). An engine with no
/// concurrent reader (a SQLite catalog in memory, in tests) has its reads
/// go through ``Offload`` as writes do.
final class CatalogReaders: Sendable {
    /// The catalog the server was given: imports and other writes go there.
    let engine: any CatalogEngine
    private let idle = StateLock<[any CatalogEngine]>([])

    init(engine: any CatalogEngine) {
        self.engine = engine
    }

    /// Runs `body` on a reader of the catalog.
    func read<T: Sendable>(_ body: @escaping @Sendable (any CatalogEngine) async throws -> T) async throws -> T {
        let reader: any CatalogEngine
        if let kept = idle.withLock({ $0.popLast() }) {
            reader = kept
        } else if let fresh = try engine.concurrentReader() {
            reader = fresh
        } else {
            let engine = engine
            return try await Offload.run { try await body(engine) }
        }
        defer { idle.withLock { $0.append(reader) } }
        return try await body(reader)
    }
}
