import Locks
import StoreCatalog

/// Connections of their own for the read endpoints, so that a lookup costs
/// a lookup.
///
/// A ``Catalog`` serializes its calls on one connection. Sent through
/// ``Offload`` to a thread, then queued behind every other request's call
/// on that connection, `GET /stores/near` spent more time handing over and
/// waiting than searching: 31 % of the constant route's requests per second
/// under wrk, p99 15 ms (BENCHMARKS.md, server). Here each read takes an
/// idle connection (opening one more when all are busy, kept for the next)
/// and runs on the calling task's thread: in WAL mode a reader never waits
/// for the writer, so a read is microseconds of work like any other, and
/// the readers in use at once are at most the cooperative pool's threads,
/// one per core.
///
/// Each reader shares one read transaction between the reads of a
/// millisecond (``readSnapshotLifetime``). An in-memory catalog (tests) has
/// one connection only: its reads go through ``Offload`` as writes do.
final class CatalogReaders: Sendable {
    /// The catalog the server was given: imports and other writes go there.
    let catalog: Catalog
    private let idle = StateLock<[Catalog]>([])

    /// How long a reader's reads share one read transaction: a millisecond
    /// (the connections that watch the catalog's version share it too).
    ///
    /// Beginning and ending a read transaction is a quarter of a store
    /// lookup (an `fcntl` lock on the WAL index each way), and a server
    /// reads in bursts — a page of a list, the candidates of a nearest
    /// search, many clients at once. The staleness this allows is bounded
    /// by it: a commit made by another process (a `carousel import` beside
    /// the server) is seen at most a millisecond late. The server's own
    /// imports are seen at once, since every write of this process ends the
    /// snapshots taken before it.
    static let readSnapshotLifetime = Duration.milliseconds(1)

    init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// Runs `body` on a reader of the catalog.
    func read<T: Sendable>(_ body: @escaping @Sendable (Catalog) throws -> T) async throws -> T {
        guard !catalog.isInMemory else {
            let catalog = catalog
            return try await Offload.run { try body(catalog) }
        }
        let reader =
            try idle.withLock { $0.popLast() }
            ?? Catalog(path: catalog.path, access: .read, readSnapshotLifetime: Self.readSnapshotLifetime)
        defer { idle.withLock { $0.append(reader) } }
        return try body(reader)
    }
}
