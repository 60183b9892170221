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

    /// Runs `body` with `db` reading through SQLite's page cache (2 MB,
    /// bounded) instead of the mapped file, then maps it again as it was:
    /// for work that reads a whole list or catalog once. Every page a
    /// mapped read touches stays mapped, and mapped pages count as the
    /// process's resident memory: an import that rewrote the 234,908
    /// places touched all 48 MB of the file and peaked at 90 MB instead of
    /// 41; a server that built its nearest-store snapshot and then served
    /// a first sync of the list held 93 MB of the file mapped, where the
    /// binary alone is 31 (BENCHMARKS.md, delta sync). Lookups keep the
    /// mapping, which makes a random store lookup about 3 µs instead of 9.
    ///
    /// Inside a transaction that holds a mapped page, SQLite keeps the
    /// mapping but maps no new page (`bUseFetch`), which is what matters.
    package static func readingUnmapped<T>(_ db: Database, _ body: () throws -> T) throws -> T {
        let mapped = try Int64.fetchOne(db, sql: "PRAGMA mmap_size") ?? 0
        guard mapped > 0 else { return try body() }
        try db.execute(sql: "PRAGMA mmap_size = 0")
        defer { try? db.execute(sql: "PRAGMA mmap_size = \(mapped)") }
        return try body()
    }

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
            // The functions migration 0007 builds the tiles with, for a
            // catalog older than that (0010 then builds them again).
            try SpatialTiles.register(db)
        }
        return configuration
    }

    /// How long an open or a write waits for another process's write
    /// transaction before giving up: five minutes. A catalog is written by
    /// one import at a time, and importing the 234,908 GeoNames places takes
    /// well under a second on a quiet machine; a minutes-long wait covers an
    /// import of millions of rows on a busy one, where SQLite's usual few
    /// seconds made parallel imports fail with a bare "database is locked".
    package static let busyTimeout: TimeInterval = 300

    /// Opens (creating if needed) the catalog at `path`, puts it in WAL mode
    /// and migrates it — after checking what it holds, so that a file we
    /// refuse is left byte for byte as it was.
    ///
    /// What the file holds is checked and the migrations applied in one
    /// immediate transaction: of several processes opening a new file at
    /// once, one migrates and the others wait, then find it migrated.
    package static func open(path: String) throws -> DatabaseQueue {
        try checkRegularFile(path)
        createOwnerOnly(path)
        var configuration = configuration
        // The journal mode stays untouched until the file is known to be a
        // catalog: GRDB's `.wal` would switch it (and create and drop a table
        // to leave a WAL file behind: a write, and fsyncs, in every command)
        // before we could look. WAL is set below, after the check, without
        // a write on a catalog already in WAL mode.
        configuration.busyMode = .timeout(busyTimeout)
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
        do {
            try queue.writeWithoutTransaction { db in
                // Look before touching anything: a file we refuse is only read.
                // One read transaction, so that the version and the tables
                // are seen in one state: read as two statements, a file
                // another process migrated in between looked like version
                // 0 with tables, "another application's" (1 in ~100 rounds
                // of 8 parallel imports into a new file).
                var version = 0
                try db.inTransaction(.deferred) {
                    version = try Migrator.checkIdentity(db, path: path)
                    return .commit
                }
                // WAL: readers never block the writer, and a killed import
                // leaves only an uncommitted WAL tail that the next open
                // ignores. A no-op once the file is in WAL mode; a new file
                // is migrated in WAL mode already.
                try switchToWAL(db, path: path)
                // As SQLite's documentation advises for WAL: durable at
                // each checkpoint, consistent at every commit.
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                // Only a file behind the schema takes the write lock: an
                // up-to-date catalog opens without waiting for an import in
                // progress (reads never wait under WAL). The migration checks
                // again inside its immediate transaction: another process may
                // have migrated the file since we looked.
                if version < Migration.latestVersion {
                    try Migrator.migrate(db, path: path)
                }
            }
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        return queue
    }

    /// Puts the file in WAL mode, waiting out other processes doing the same.
    ///
    /// Switching a new file to WAL writes its header inside a transaction
    /// that has already read it, and SQLite does not call the busy handler
    /// for a reader that asks to write (it could deadlock): of several
    /// processes opening one new file at once, all but the first got
    /// SQLITE_BUSY at once, whatever the busy timeout. So the switch is
    /// retried here, for as long as the timeout would have waited; once
    /// another process has made the switch, the retry finds WAL mode and
    /// writes nothing.
    private static func switchToWAL(_ db: Database, path: String) throws {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        var mode: String?
        while true {
            do {
                mode = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                break
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline {
                // A few milliseconds: the other process's switch and
                // migration of a new file take about that long.
                Thread.sleep(forTimeInterval: .random(in: 0.001...0.005))
            }
        }
        guard mode == "wal" else {
            throw CatalogError.database("cannot put \(path) in WAL mode (it stays in \(mode ?? "an unknown") mode)")
        }
    }

    /// Opens the catalog at `path` read-only, for a reading command on a
    /// file this process may not write (its permissions, a read-only
    /// mount): nothing is migrated or switched, so the file must already be
    /// a catalog at the latest schema.
    ///
    /// A WAL-mode database read the usual way needs its `-shm` index beside
    /// it, created on first use. In a read-only folder it cannot be
    /// created, and SQLite refuses even a `SELECT` ("attempt to write a
    /// readonly database"); beside a read-only file it is created with the
    /// file's read-only permissions and left behind, where it later blocks
    /// the owner's writes once the file is writable again. So a file whose
    /// WAL holds nothing (the usual state: the last writer to close
    /// checkpoints it and deletes it) is opened with SQLite's `immutable=1`
    /// URI parameter, which reads it with no `-shm`, no `-wal` and no locks
    /// (https://sqlite.org/uri.html#uriimmutable). Only a file with
    /// committed changes still in its WAL takes the usual way: those
    /// changes are only readable through the index.
    package static func openReadOnly(path: String) throws -> DatabaseQueue {
        try checkRegularFile(path)
        var configuration = configuration
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        let queue: DatabaseQueue
        do {
            let immutable = isWALEmpty(path) ? immutableURI(path) : nil
            do {
                queue = try DatabaseQueue(path: immutable ?? path, configuration: configuration)
            } catch let error as DatabaseError where immutable != nil && error.resultCode == .SQLITE_CANTOPEN {
                // A SQLite built without URI filenames (Debian's and Apple's
                // have them) read the URI as a file name, which does not
                // exist: the usual way is left.
                queue = try DatabaseQueue(path: path, configuration: configuration)
            }
            try queue.read { db in
                let version = try Migrator.checkIdentity(db, path: path)
                if version < Migration.latestVersion {
                    throw CatalogError.database(
                        """
                        \(path) is read-only and at schema \(version), older than this carousel's \
                        \(Migration.latestVersion): open it once with write access to upgrade it
                        """)
                }
            }
        } catch let error as DatabaseError {
            throw classify(error, path: path)
        }
        return queue
    }

    /// Whether `path` has no WAL, or an empty one: then the file alone holds
    /// every committed change.
    private static func isWALEmpty(_ path: String) -> Bool {
        var status = stat()
        guard stat(path + "-wal", &status) == 0 else { return errno == ENOENT }
        return status.st_size == 0
    }

    /// The `file:` URI (RFC 3986, as https://sqlite.org/uri.html reads it)
    /// that opens `path` as immutable. Every byte but unreserved ones and
    /// `/` is percent-encoded, so that `?`, `#` and `%` in a name stay part
    /// of it; an absolute path starting with `//` would read as an
    /// authority, and the kernel reads `//` as `/` anyway.
    static func immutableURI(_ path: String) -> String {
        var path = Substring(path)
        while path.hasPrefix("//") { path = path.dropFirst() }
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                uri.unicodeScalars.append("%")
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                uri.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return uri + "?immutable=1"
    }

    /// Creates the empty file `path`, readable and writable by its owner
    /// only (0600), unless something is there: a catalog holds API token
    /// hashes. SQLite would create it 0644 under the usual umask 022
    /// (`SQLITE_DEFAULT_FILE_PERMISSIONS`), and it gives the `-wal` and
    /// `-shm` files it makes beside a database the database's own mode
    /// (`findCreateFileMode` and `unixOpenSharedMemory` in its os_unix.c),
    /// so those are 0600 too. An empty file is a new database to SQLite.
    ///
    /// A file that exists keeps its mode: it is the owner's to choose
    /// (docs/production.md says to `chmod 600` an older catalog). Any
    /// failure (a missing folder, a read-only one) is left to SQLite's
    /// open to explain.
    static func createOwnerOnly(_ path: String) {
        createNewFile(path, mode: 0o600)
    }

    /// Refuses a path that exists and is not a regular file (after
    /// symbolic links): SQLite would open `/dev/null` or a FIFO, then
    /// create `/dev/null-journal` beside it, or block.
    static func checkRegularFile(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }  // a new file, or one SQLite will explain
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind =
                switch status.st_mode & S_IFMT {
                case S_IFDIR: "a folder"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFIFO: "a FIFO"
                case S_IFSOCK: "a socket"
                default: "a special file"
                }
            throw CatalogError.notACatalog(path: path, reason: "it is \(kind), not a regular file")
        }
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

    /// The error of a write to a catalog this process cannot write:
    /// SQLite's `SQLITE_READONLY` (8) unless another of its codes is given.
    package static func readOnly(path: String, code: Int32 = 8) -> CatalogError {
        .sqlite(code: code, message: "cannot write to \(path): the file or its folder is read-only (reading still works)")
    }

    /// The one line for a catalog with damaged pages, whatever found them.
    package static func damageMessage(path: String, detail: String) -> String {
        "\(path) is damaged (\(detail)): restore it from a backup, or import the lists again into a new file"
    }

    /// A corrupt or foreign file says so in terms of the file; anything else
    /// is a plain database error.
    package static func classify(_ error: DatabaseError, path: String) -> CatalogError {
        switch error.resultCode {
        case .SQLITE_NOTADB:
            .notACatalog(path: path, reason: error.message ?? "not a SQLite database")
        case .SQLITE_CORRUPT:
            .database(damageMessage(path: path, detail: error.message ?? "database disk image is malformed"))
        case .SQLITE_CANTOPEN:
            .cannotOpen(path: path, code: error.extendedResultCode.rawValue, message: error.message ?? "unable to open database file")
        case .SQLITE_BUSY where error.extendedResultCode == .SQLITE_BUSY_SNAPSHOT:
            // A read that turned into a write after another process wrote:
            // no wait can help, the command must start again.
            .sqlite(
                code: error.extendedResultCode.rawValue,
                message: """
                    \(path) was changed by another process during this command; run it again
                    """)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            .sqlite(
                code: error.extendedResultCode.rawValue,
                message: """
                    \(path) is busy: another process kept it locked for over \(Int(busyTimeout)) s \
                    (an import in progress?); try again when it has finished
                    """)
        case .SQLITE_READONLY:
            readOnly(path: path, code: error.extendedResultCode.rawValue)
        default:
            .sqlite(code: error.extendedResultCode.rawValue, message: error.message ?? "\(error)")
        }
    }
}

/// Creates `path` with `mode` (less the umask) if nothing is there; out of
/// ``CatalogDatabase``, whose `open(path:)` hides the system's `open`.
private func createNewFile(_ path: String, mode: mode_t) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    if descriptor >= 0 { close(descriptor) }
}
