import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoreCatalog

/// Opening a catalog: a file we refuse is left byte for byte as it was, a
/// file we may only read is read, and damage is reported rather than shown
/// as an empty list.
@Suite("Opening safely")
struct OpenSafetyTests {
    /// The file's bytes, and which of its journal/WAL companions exist.
    private func snapshot(_ path: String) throws -> (bytes: Data, companions: [String]) {
        let companions = ["-wal", "-shm", "-journal"].filter { FileManager.default.fileExists(atPath: path + $0) }
        return (try Data(contentsOf: URL(fileURLWithPath: path)), companions)
    }

    /// A database in rollback-journal mode, closed, made by `body`.
    private func makeDatabase(at path: String, _ body: (Database) throws -> Void) throws {
        try DatabaseQueue(path: path).writeWithoutTransaction { db in try body(db) }
    }

    @Test("another application's database is refused and left byte for byte as it was (no WAL, no cookie bump, no page)")
    func foreignDatabaseIsLeftUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite").path
        try makeDatabase(at: path) { db in
            try db.execute(sql: "CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('keep me')")
        }
        let before = try snapshot(path)
        #expect(before.companions.isEmpty)

        #expect(throws: CatalogError.self) { try Catalog(path: path) }
        #expect(throws: CatalogError.self) { try Catalog(path: path, access: .read) }

        let after = try snapshot(path)
        #expect(after.bytes == before.bytes)
        #expect(after.companions.isEmpty)
    }

    @Test("a catalog of a newer schema is refused and left byte for byte as it was")
    func newerSchemaIsLeftUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("newer.sqlite").path
        try makeDatabase(at: path) { db in
            try db.execute(sql: "PRAGMA application_id = \(Migrator.applicationID)")
            try db.execute(sql: "CREATE TABLE future (x)")
            try db.execute(sql: "PRAGMA user_version = \(Migration.latestVersion + 1)")
        }
        let before = try snapshot(path)

        let error = #expect(throws: CatalogError.self) { try Catalog(path: path) }
        #expect(error == .newerSchema(path: path, found: Migration.latestVersion + 1, known: Migration.latestVersion))

        let after = try snapshot(path)
        #expect(after.bytes == before.bytes)
        #expect(after.companions.isEmpty)
    }

    @Test("a catalog opened read-only is read, and a write says the file is read-only")
    func readOnlyCatalogIsRead() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        do {
            let catalog = try Catalog(path: path)
            try catalog.importList(named: "one", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        }
        let before = try snapshot(path).bytes
        // What `Catalog(path:access: .read)` does for a file it cannot write
        // (a test running as root can write any file, so call it directly).
        let queue = try CatalogDatabase.openReadOnly(path: path)
        let catalog = Catalog(database: queue, path: path)
        #expect(try catalog.lists() == [ListSummary(name: "one", count: 1)])
        #expect(try catalog.store(list: "one", at: 0).id == "a")
        let error = #expect(throws: CatalogError.self) {
            try catalog.importList(named: "two", from: ArrayRowReader(stores: []))
        }
        #expect(error?.description.contains("read-only") == true)
        #expect(try snapshot(path).bytes == before)
    }

    @Test("a file this process cannot write is opened read-only by reading commands", .enabled(if: getuid() != 0))
    func unwritableFileOpensReadOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        do {
            let catalog = try Catalog(path: path)
            try catalog.importList(named: "one", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path) }
        #expect(try Catalog(path: path, access: .read).lists() == [ListSummary(name: "one", count: 1)])
    }

    @Test("a list whose items page was overwritten by an empty node is reported damaged, not shown as empty")
    func damagedPagesAreReportedNotEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        let rootPage: Int
        do {
            let catalog = try Catalog(path: path)
            let stores = (0..<3000).map { Store(id: "s\($0)", name: "Store \($0)", latitude: 1, longitude: 2) }
            try catalog.importList(named: "many", from: ArrayRowReader(stores: stores))
            rootPage = try catalog.database.read { db in
                try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'list_items'")!
            }
        }
        // The list_items root page becomes an empty index leaf (type 0x0A,
        // no cells): SQLite reads it as a B-tree with no rows.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64((rootPage - 1) * CatalogDatabase.pageSize))
        handle.write(Data([0x0A, 0, 0, 0, 0, 0x40, 0, 0]) + Data(count: CatalogDatabase.pageSize - 8))
        try handle.close()

        let catalog = try Catalog(path: path)
        for query in [{ _ = try catalog.lists() }, { _ = try catalog.count(list: "many") }, { _ = try catalog.stores(list: "many") }] {
            let error = #expect(throws: CatalogError.self) { try query() }
            #expect(error?.description.contains("is damaged") == true, "\(String(describing: error))")
        }
    }

    @Test("opening an up-to-date catalog does not wait for a write in progress")
    func openingDoesNotWaitForAWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        let writer = try Catalog(path: path)
        try writer.importList(named: "one", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        // Another connection holds the write lock, as an import does for its
        // whole length; a reader opening now must neither wait nor fail.
        let holder = try DatabaseQueue(path: path)
        try holder.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            let reader = try Catalog(path: path, access: .read)
            #expect(try reader.lists() == [ListSummary(name: "one", count: 1)])
            try db.execute(sql: "ROLLBACK")
        }
    }

    @Test("a wait for another process's lock that runs out is one line saying what to do")
    func busyIsExplained() {
        let error = CatalogDatabase.classify(DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked"), path: "c.sqlite")
        #expect(
            error.description == """
                database error (SQLite error 5): c.sqlite is busy: another process kept it locked for over 300 s \
                (an import in progress?); try again when it has finished
                """)
        #expect(error.sqliteResultCode == 5)
        #expect(CatalogDatabase.busyTimeout >= 60)
    }

    @Test("an empty list in a sound catalog is still just empty")
    func anEmptyListIsNotDamage() throws {
        let catalog = try TestCatalog(.file).catalog
        try catalog.importList(named: "none", from: ArrayRowReader(stores: []))
        #expect(try catalog.lists() == [ListSummary(name: "none", count: 0)])
        #expect(try catalog.count(list: "none") == 0)
    }

    /// The permission bits of `path`, or nil when it is not there.
    static func mode(_ path: String) -> mode_t? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & 0o777
    }

    @Test("a catalog made anew and SQLite's -wal and -shm beside it are its owner's alone (0600), under umask 022")
    func aNewCatalogIsOwnerOnly() throws {
        // Issue 42: a catalog holds API token hashes. umask is the
        // process's: set to the usual 022 (under which SQLite made 0644
        // files) for this test, then put back.
        let previous = umask(0o022)
        defer { umask(previous) }
        let directory = try TemporaryDirectory()
        let path = directory.path("new.sqlite").path
        let catalog = try Catalog(path: path)
        try catalog.importList(named: "one", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        try withExtendedLifetime(catalog) {
            for file in [path, path + "-wal", path + "-shm"] {
                #expect(Self.mode(file) == 0o600, "\(file): \(String(Self.mode(file) ?? 0, radix: 8))")
            }
            // A catalog that exists keeps the mode its owner gave it.
            let older = directory.path("older.sqlite").path
            _ = try Catalog(path: older)
            #expect(chmod(older, 0o640) == 0)
            let reopened = try Catalog(path: older)
            try reopened.importList(named: "one", from: ArrayRowReader(stores: []))
            #expect(Self.mode(older) == 0o640)
        }
    }
}
