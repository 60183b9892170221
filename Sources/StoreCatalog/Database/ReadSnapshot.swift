import Foundation
import GRDB
import Locks

/// The read transaction that a ``Catalog``'s reads share for at most a
/// ``lifetime``, when its owner asks for one (`Catalog`'s
/// `readSnapshotLifetime`; the server does): a burst of position lookups
/// then pays SQLite's read-transaction system calls once per lifetime
/// instead of once per call. With a zero lifetime, the default, each read is
/// a transaction of its own and sees every commit made before it.
///
/// Why it exists: in WAL mode beginning and ending a read transaction takes
/// and drops a lock on the shared-memory index with an `fcntl` each — 1.5 µs
/// of a 6 µs store lookup on the 234,908-place catalog. A server answering
/// pages of a list and nearest searches reads in such bursts.
///
/// What it costs is staleness: a shared snapshot misses other processes'
/// commits for up to ``lifetime`` (never this process's). That is why it is
/// an explicit choice, made where the bound is documented. GRDB's
/// `allowsUnsafeTransactions` is what lets a transaction outlive one access
/// to the queue; it is confined to this type, which only ever opens a
/// deferred, read-only transaction and ends it before any write.
///
/// What a read sees: every commit made in this process (through any
/// `Catalog`) before the call, since each write bumps ``noteWrite()``'s
/// counter and a snapshot taken before it is not reused; and every commit
/// of other processes made more than ``lifetime`` before the call. An idle
/// snapshot ends by itself two lifetimes after it began, so it never holds
/// back another process's checkpoint for longer than that.
///
/// ``read(_:_:)`` and ``end(_:)`` run on the catalog's database queue; the
/// idle timer looks at the state from its own thread.
package final class ReadSnapshot: Sendable {

    /// Commits made through any catalog of this process.
    private static let writes = AtomicWord(0)

    private struct Open {
        var since: ContinuousClock.Instant
        var writes: UInt64
    }

    private struct State {
        /// Set while this catalog's connection is inside the shared
        /// transaction.
        var open: Open?
        /// A timer is on its way to end the snapshot once it expires: one
        /// at a time, however many snapshots a burst of reads goes through.
        var isTimerPending = false
    }

    private let database: DatabaseQueue
    /// How long a snapshot serves reads.
    let lifetime: Duration
    /// Changed on the database queue, looked at by the idle timer too.
    private let state = StateLock(State())
    /// Where the idle timer runs (``endWhenIdle(after:)``).
    private let timerQueue = DispatchQueue(label: "carousel.catalog.read-snapshot")

    init(_ database: DatabaseQueue, lifetime: Duration = .zero) {
        self.database = database
        self.lifetime = lifetime
    }

    /// How many write transactions of this process have ended so far.
    package static var writesSoFar: UInt64 { writes.load() }

    /// Records that a write transaction of this process has ended: no
    /// snapshot taken before it is used again.
    static func noteWrite() {
        writes.add(1)
    }

    /// Runs `body` inside the shared read transaction, starting a new one
    /// when there is none or the current one is too old.
    func read<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        guard lifetime > .zero else { return try readAlone(db, body) }
        let now = ContinuousClock.now
        let writes = Self.writes.load()
        let isFresh = state.withLock { state in
            state.open.map { now - $0.since < lifetime && $0.writes == writes } ?? false
        }
        if !isFresh {
            try end(db)
            // DEFERRED: the read lock is taken by the first statement.
            try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
            let startsTimer = state.withLock { state in
                state.open = Open(since: now, writes: writes)
                defer { state.isTimerPending = true }
                return !state.isTimerPending
            }
            if startsTimer { endWhenIdle(after: lifetime * 2) }
        }
        return try body(db)
    }

    /// Runs `body` in a read transaction of its own: every statement sees
    /// one state of the database, and the lock is released when it returns.
    private func readAlone<T>(_ db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        let result: T
        do {
            result = try body(db)
        } catch {
            // A read-only transaction: ending it cannot lose anything.
            if db.isInsideTransaction { try? db.cachedStatement(sql: "COMMIT").execute() }
            throw error
        }
        if db.isInsideTransaction { try db.cachedStatement(sql: "COMMIT").execute() }
        return result
    }

    /// Ends the shared transaction, if open: before a write.
    func end(_ db: Database) throws {
        guard state.withLock({ $0.open.take() }) != nil, db.isInsideTransaction else { return }
        try db.cachedStatement(sql: "COMMIT").execute()
    }

    /// Ends the snapshot once no read has renewed it for two lifetimes.
    ///
    /// The timer looks at the snapshot from its own thread and comes onto
    /// the database queue only to end an idle one: while lookups keep
    /// renewing it, they never wait behind the timer (a hand-over between
    /// threads costs tens of microseconds). It holds the snapshot weakly: a
    /// catalog let go closes its connection at once (checkpointing and
    /// removing the WAL if it is the last), not after a command-line run
    /// has exited.
    ///
    /// The timer ends the snapshot by a synchronous write from its own
    /// serial queue, never by queueing a block onto the database queue.
    /// A queued block needs a worker thread to run it, and every read
    /// (`DatabaseQueue` is a serial dispatch queue, entered with `sync`)
    /// waits behind it: a server with 512 live sessions had every
    /// libdispatch worker blocked in such a read, none left to run the
    /// timer's block, and stopped for good (gdb: 375 threads in
    /// `Catalog.dataVersion`, in `_dispatch_sync_f_slow`, none inside).
    /// A `sync` call runs its block on the calling thread, so reads and
    /// the timer need no other thread to make progress. The queue is a
    /// serial one of the catalog's own, so that its waits never hold one
    /// of the few width-limited threads that Swift's cooperative pool runs
    /// on (docs/concurrency.md).
    private func endWhenIdle(after delay: Duration) {
        let nanoseconds = Int((delay / .nanoseconds(1)).rounded(.up))
        timerQueue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
            guard let self else { return }
            switch idleCheck() {
            case .stop: break
            case let .wait(left): endWhenIdle(after: left)
            case .end:
                try? database.writeWithoutTransaction { db in
                    switch idleCheck() {
                    case .stop: break
                    case let .wait(left): endWhenIdle(after: left)
                    // Ending a read transaction releases a lock and cannot
                    // fail in a way a later read would not report.
                    case .end: try? end(db)
                    }
                }
            }
        }
    }

    private enum IdleCheck {
        case stop, end
        case wait(Duration)
    }

    /// What the timer should do about the snapshot now; stops being pending
    /// unless it is to wait.
    private func idleCheck() -> IdleCheck {
        state.withLock { state in
            guard let open = state.open else {
                state.isTimerPending = false
                return .stop
            }
            let left = open.since + lifetime * 2 - ContinuousClock.now
            guard left > .zero else {
                state.isTimerPending = false
                return .end
            }
            return .wait(left)
        }
    }
}
