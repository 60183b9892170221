import Foundation
import GRDB
import Locks
import TestSupport
import Testing

@testable import StoreCatalog

/// A catalog opened with a `readSnapshotLifetime` shares a read transaction
/// between its reads for that long (ReadSnapshot): never at the cost of
/// missing this process's writes, never for long enough to hold back
/// another process. Without one, each read sees every commit before it.
@Suite("Read snapshot")
struct ReadSnapshotTests {
    static let first = [
        Store(id: "a", name: "Alpha", latitude: 37.5, longitude: 127),
        Store(id: "b", name: "Beta", latitude: 35.1, longitude: 129),
    ]
    static let second = [Store(id: "c", name: "Gamma", latitude: 33.5, longitude: 126.5)]

    /// A catalog file holding list "l" of ``first``.
    struct FileCatalog {
        let directory: TemporaryDirectory
        let path: String
        let catalog: Catalog

        init(snapshotLifetime: Duration = .milliseconds(1)) throws {
            directory = try TemporaryDirectory()
            path = directory.path("catalog.sqlite").path
            catalog = try Catalog(path: path, readSnapshotLifetime: snapshotLifetime)
            try catalog.importList(named: "l", from: ArrayRowReader(stores: ReadSnapshotTests.first))
        }

        /// Writes `sql` through a plain connection, which stands for another
        /// process: no catalog of this process hears of the write.
        func writeElsewhere(_ sql: String) throws -> DatabaseQueue {
            let elsewhere = try DatabaseQueue(path: path)
            try elsewhere.write { db in try db.execute(sql: sql) }
            return elsewhere
        }
    }

    /// Waits, polling, until `condition` holds (at most 30 s); false if it
    /// never does. For effects due "within a millisecond", on a machine
    /// that may be busy.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)  // met at once when idle; generous for a loaded 2-core machine
        while ContinuousClock.now < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.001)
        }
        return try condition()
    }

    @Test("a list replaced through another catalog of this process is seen by the very next lookup")
    func replaceThroughAnotherCatalogIsSeenAtOnce() throws {
        // Snapshots that would serve reads for an hour: only the write of
        // this process can make the reader take a new one.
        let file = try FileCatalog(snapshotLifetime: .seconds(3600))
        let reader = file.catalog
        #expect(try reader.store(list: "l", at: 1) == Self.first[1])
        #expect(try reader.location(list: "l", at: 0).id == "a")

        let writer = try Catalog(path: file.path)
        try writer.importList(named: "l", from: ArrayRowReader(stores: Self.second), options: .init(replace: true))

        #expect(try reader.store(list: "l", at: 0) == Self.second[0])
        #expect(try reader.location(list: "l", at: 0).id == "c")
        #expect(throws: CatalogError.positionOutOfRange(list: "l", position: 1, count: 1)) {
            try reader.store(list: "l", at: 1)
        }
        #expect(try reader.store(id: "a") == nil)
    }

    @Test("a write from another process is seen once the snapshot's millisecond is over")
    func writeFromElsewhereIsSeenSoon() throws {
        let file = try FileCatalog()
        #expect(try file.catalog.store(list: "l", at: 0).name == "Alpha")

        _ = try file.writeElsewhere("UPDATE stores SET name = 'Renamed' WHERE id = 'a'")

        #expect(try Self.eventually { try file.catalog.store(list: "l", at: 0).name == "Renamed" })
    }

    @Test("by default a read sees another process's commit at once, and holds no transaction after it")
    func defaultReadsAreTransactionsOfTheirOwn() throws {
        let file = try FileCatalog(snapshotLifetime: .zero)
        #expect(file.catalog.readSnapshotLifetime == .zero)
        #expect(try file.catalog.store(list: "l", at: 0).name == "Alpha")
        #expect(try !file.catalog.database.writeWithoutTransaction(\.isInsideTransaction))

        _ = try file.writeElsewhere("UPDATE stores SET name = 'Renamed' WHERE id = 'a'")

        #expect(try file.catalog.store(list: "l", at: 0).name == "Renamed")
        #expect(try Catalog(path: file.path).readSnapshotLifetime == .zero)
    }

    @Test("an idle snapshot ends by itself, so another connection can checkpoint the whole WAL")
    func idleSnapshotEndsItself() throws {
        let file = try FileCatalog()
        _ = try file.catalog.location(list: "l", at: 0)

        #expect(Self.eventually { !file.catalog.database.writeWithoutTransaction(\.isInsideTransaction) })

        let elsewhere = try file.writeElsewhere("UPDATE stores SET name = 'Renamed' WHERE id = 'b'")
        let checkpoint = try elsewhere.writeWithoutTransaction { db in
            try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        #expect(checkpoint?[0] == 0, "the checkpoint was blocked by a reader")
    }

    @Test("a catalog let go right after a lookup closes its connection at once")
    func droppedCatalogClosesAtOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        do {
            // An hour-long snapshot: only letting go of the catalog ends it.
            let catalog = try Catalog(path: path, readSnapshotLifetime: .seconds(3600))
            try catalog.importList(named: "l", from: ArrayRowReader(stores: Self.first))
            _ = try catalog.store(list: "l", at: 0)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        // The last connection to close checkpoints the WAL and removes it.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("lookups, imports and queries interleave on one catalog", arguments: Storage.allCases)
    func readsAndWritesInterleave(storage: Storage) throws {
        let catalog = try TestCatalog(storage).catalog
        try catalog.importList(named: "one", from: ArrayRowReader(stores: Self.first))
        #expect(try catalog.store(list: "one", at: 0) == Self.first[0])

        try catalog.importList(named: "two", from: ArrayRowReader(stores: Self.second))

        #expect(try catalog.location(list: "two", at: 0).id == "c")
        #expect(try catalog.count(list: "one") == 2)
        #expect(try catalog.lists().map(\.name) == ["one", "two"])
        #expect(try catalog.nearest(to: Self.second[0].coordinate, limit: 1).map(\.store.id) == ["c"])
    }
}

/// Reads waiting on more threads than libdispatch will start while the
/// snapshot's idle timer comes to end it.
@Suite("Read snapshot under every dispatch worker")
struct ReadSnapshotThreadTests {
    /// A thread of its own holds the database queue in a read (which
    /// starts a snapshot and its idle timer), the timer falls due, and 400
    /// readers, more than the 255 worker threads libdispatch starts for their
    /// quality of service, wait
    /// for the queue. When the timer queued its ending of the snapshot onto
    /// the database queue, that block waited for a worker that never came,
    /// and every reader waited behind it forever (a server with 512 live
    /// sessions stopped so). Now the timer waits like any reader and runs
    /// its ending on its own thread.
    @Test("readers on every worker thread all finish after the snapshot's timer fell due")
    func readersOnEveryWorkerAllFinish() throws {
        let file = try ReadSnapshotTests.FileCatalog(snapshotLifetime: .milliseconds(1))
        let catalog = file.catalog
        let holding = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        // Not a dispatch worker: when it lets go, no worker is freed.
        let holder = Thread {
            _ = try? catalog.read { _ in
                holding.signal()
                // The idle timer (2 lifetimes) falls due meanwhile.
                Thread.sleep(forTimeInterval: 0.3)
            }
            released.signal()
        }
        holder.start()
        holding.wait()
        let readers = 400
        let finished = AtomicWord(0)
        let group = DispatchGroup()
        for index in 0..<readers {
            // The quality of service of the database queue (GRDB's default)
            // and of the server's catalog calls: libdispatch starts at most
            // 255 workers for it.
            DispatchQueue(label: "reader-\(index)", qos: .userInitiated).async(group: group) {
                _ = try? catalog.count(list: "l")
                finished.add(1)
            }
        }
        // Bounded: 60 s for reads of microseconds after a 0.3 s hold.
        let outcome = group.wait(timeout: .now() + .seconds(60))
        #expect(outcome == .success, "\(finished.load()) of \(readers) readers finished")
        #expect(released.wait(timeout: .now() + .seconds(10)) == .success)
    }
}
