import Foundation
import GRDB
import Synchronization

/// One read transaction that a ``Catalog``'s single-statement reads share
/// for at most a ``lifetime``: a burst of position lookups pays SQLite's
/// read-transaction system calls once per millisecond instead of once per
/// call.
///
/// Why: outside a transaction every statement is its own WAL read
/// transaction, and in WAL mode beginning and ending one takes and drops a
/// lock on the shared-memory index with an `fcntl` each — 1.5 µs of a 6 µs
/// store lookup on the 234,908-place catalog.
///
/// What a read sees: every commit made in this process (through any
/// `Catalog`) before the call, since each write bumps ``noteWrite()``'s
/// counter and a snapshot taken before it is not reused; and every commit
/// of other processes made more than ``lifetime`` before the call. An idle
/// snapshot ends by itself after ``lifetime``, so it never holds back
/// another process's checkpoint for longer than that.
///
/// Everything but ``noteWrite()`` runs on the catalog's database queue.
final class ReadSnapshot: Sendable {
    /// A millisecond: a few hundred lookups per snapshot, and a staleness
    /// far below anything a person or a frame (16 ms) can see.
    static let standardLifetime = Duration.milliseconds(1)

    /// Commits made through any catalog of this process.
    private static let writes = Atomic<UInt64>(0)

    private struct Open {
        var since: ContinuousClock.Instant
        var writes: UInt64
    }

    private let database: DatabaseQueue
    /// How long a snapshot serves reads.
    let lifetime: Duration
    /// Set while this catalog's connection is inside the shared transaction.
    /// Only touched on the database queue; the lock makes that checkable.
    private let open = Mutex<Open?>(nil)

    init(_ database: DatabaseQueue, lifetime: Duration = standardLifetime) {
        self.database = database
        self.lifetime = lifetime
    }

    /// Records that a write transaction of this process has ended: no
    /// snapshot taken before it is used again.
    static func noteWrite() {
        writes.add(1, ordering: .releasing)
    }

    /// Runs `body` inside the shared read transaction, starting a new one
    /// when there is none or the current one is too old.
    func read<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        let now = ContinuousClock.now
        let writes = Self.writes.load(ordering: .acquiring)
        let isFresh = open.withLock { open in
            open.map { now - $0.since < lifetime && $0.writes == writes } ?? false
        }
        if !isFresh {
            try end(db)
            // DEFERRED: the read lock is taken by the first statement.
            try db.execute(sql: "BEGIN DEFERRED TRANSACTION")
            open.withLock { $0 = Open(since: now, writes: writes) }
            endWhenIdle()
        }
        return try body(db)
    }

    /// Ends the shared transaction, if open: before a write or a read that
    /// opens its own transaction.
    func end(_ db: Database) throws {
        guard open.withLock({ $0.take() }) != nil, db.isInsideTransaction else { return }
        try db.execute(sql: "COMMIT")
    }

    /// Ends the snapshot once it has expired, should no read come to renew
    /// it by then.
    ///
    /// The timer holds the snapshot weakly: a catalog let go closes its
    /// connection at once (checkpointing and removing the WAL if it is the
    /// last), rather than a millisecond later — after a command-line run
    /// has already exited.
    private func endWhenIdle() {
        let delay = DispatchTimeInterval.nanoseconds(Int((lifetime / .nanoseconds(1)).rounded(.up)))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in
            self?.database.asyncWriteWithoutTransaction { [weak self] db in
                guard let self else { return }
                let isExpired = open.withLock { open in
                    open.map { ContinuousClock.now - $0.since >= lifetime } ?? false
                }
                // Ending a read transaction releases a lock and cannot fail
                // in a way a later read would not report.
                if isExpired { try? end(db) }
            }
        }
    }
}
