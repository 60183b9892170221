import Foundation
import GRDB

/// Opens the SQLite connection behind a ``Catalog``: WAL for files, a private
/// in-memory database for tests, migrated either way.
package enum CatalogDatabase {
    /// The most of the file mapped into memory for reading: as much as
    /// SQLite allows (it caps the setting at its compile-time
    /// `SQLITE_MAX_MMAP_SIZE`, 0x7fff0000 in Debian's and the default
    /// build). Address space only. It was 1 GiB, which a catalog of 10⁷
    /// stores (2.16 GB) outgrows: lookups past that point went through
    /// SQLite's 2 MB page cache, a `pread` per page (BENCHMARKS.md, scale).
    static let mmapSize = 0x7fff_0000

    /// What a user calls the database in messages.
    static let inMemoryName = ":memory:"

    /// The page size of new catalogs. SQLite's default is 4 KiB; an import
    /// of the 234,908 GeoNames places moves its 36 MB a page per `pwrite`
    /// or `pread`, several times over (into the WAL, back to checksum the
    /// frames a spill rewrote, copied by the checkpoint): 16 KiB pages cut
    /// those calls from 54,000 to 13,500 and the import's time by a sixth,
    /// lookups unchanged (a level less in each B-tree, a longer binary
    /// search per page). A database keeps the page size it was created with.
    static let pageSize = 16_384

    /// What every catalog connection shares.
    private static var configuration: Configuration {
        var configuration = Configuration()
        // Reads share a read transaction that outlives the call that opened
        // it (ReadSnapshot), which GRDB otherwise refuses.
        configuration.allowsUnsafeTransactions = true
        configuration.prepareDatabase { db in
            // Only takes effect on an empty database, before WAL mode is set.
            try db.execute(sql: "PRAGMA page_size = \(pageSize)")
        }
        return configuration
    }

    /// Opens (creating if needed) the catalog at `path` in WAL mode and
    /// migrates it.
    package static func open(path: String) throws -> DatabaseQueue {
        var configuration = configuration
        // WAL: readers never block the writer, and a killed import leaves
        // only an uncommitted WAL tail that the next open ignores. Set here
        // rather than with GRDB's `journalMode = .wal`, which also makes sure
        // a non-empty WAL file exists (for `DatabasePool` readers, which a
        // catalog never opens) by creating and dropping a table: a write
        // transaction, three `fdatasync`s and a checkpoint at close in every
        // command, `focus` and `stores` included, since the last connection
        // to close removes the WAL. WAL mode is stored in the file, so on an
        // existing catalog this pragma writes nothing.
        configuration.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw DatabaseError(message: "could not switch \(path) to WAL mode")
            }
            // As GRDB's WAL setup did: no fsync per commit, only at
            // checkpoints; a power loss may lose the last commits but never
            // corrupts the file (SQLite's advice for WAL mode).
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // Another process importing: wait for it rather than fail at once.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Read pages straight from the OS page cache instead of one
            // pread per page missing from SQLite's 2 MB cache: a random
            // store lookup on the 234,908-place catalog goes from ~9 µs to
            // ~3 µs. Address space only; what is resident stays the OS's.
            try db.execute(sql: "PRAGMA mmap_size = \(mmapSize)")
        }
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        try migrate(queue, path: path)
        return queue
    }

    /// A fresh, empty, migrated in-memory catalog.
    package static func inMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration)
        try migrate(queue, path: inMemoryName)
        return queue
    }

    private static func migrate(_ queue: DatabaseQueue, path: String) throws {
        do {
            try queue.writeWithoutTransaction { db in try Migrator.migrate(db, path: path) }
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
    }

    /// A corrupt or foreign file says so in terms of the file; anything else
    /// is a plain database error.
    package static func classify(_ error: DatabaseError, path: String) -> CatalogError {
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            .notACatalog(path: path, reason: error.message ?? "not a SQLite database")
        case .SQLITE_CANTOPEN:
            .cannotOpen(path: path, code: error.extendedResultCode.rawValue, message: error.message ?? "unable to open database file")
        default:
            .sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "\(error)")
        }
    }
}
