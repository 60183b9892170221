import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoreCatalog

/// The storage choices made for speed keep the database's guarantees.
@Suite("Catalog storage")
struct CatalogStorageTests {
    @Test("a new catalog gets 16 KiB pages; one created with other pages keeps them")
    func pageSizeOfNewCatalogsOnly() throws {
        let directory = try TemporaryDirectory()
        let fresh = try Catalog(path: directory.path("fresh.sqlite").path)
        #expect(try fresh.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == CatalogDatabase.pageSize)

        let oldPath = directory.path("old.sqlite").path
        try DatabaseQueue(path: oldPath).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL")
        }
        let old = try Catalog(path: oldPath)
        try old.importList(named: "l", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        #expect(try old.read { db in try Int.fetchOne(db, sql: "PRAGMA page_size") } == 4096)
        #expect(try old.store(list: "l", at: 0).id == "a")
    }

    @Test("whole-list reads go through the page cache, and the map comes back as it was for lookups")
    func wholeListReadsDoNotMapTheFile() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("mapped.sqlite").path
        let catalog = try Catalog(path: path)
        try catalog.importList(named: "l", from: ArrayRowReader(stores: [Store(id: "a", name: "A", latitude: 1, longitude: 2)]))
        let mapSize = { (db: Database) in try Int64.fetchOne(db, sql: "PRAGMA mmap_size") }
        #expect(try catalog.read(mapSize) == Int64(CatalogDatabase.mmapSize))
        let inside = try catalog.read { db in try CatalogDatabase.readingUnmapped(db) { try mapSize(db) } }
        #expect(inside == 0)
        // What reads a whole list leaves the map as lookups want it.
        _ = try catalog.changes(list: "l", since: nil, limit: 100)
        _ = try catalog.nearestSnapshot(maxEntries: 10) { $0.id }
        #expect(try catalog.read(mapSize) == Int64(CatalogDatabase.mmapSize))
        #expect(try catalog.store(list: "l", at: 0).id == "a")
        // A read-only catalog maps nothing, before, during and after.
        let readOnly = Catalog(database: try CatalogDatabase.openReadOnly(path: path), path: path, isReadOnly: true)
        #expect(try readOnly.read(mapSize) == 0)
        #expect(try readOnly.read { db in try CatalogDatabase.readingUnmapped(db) { try mapSize(db) } } == 0)
        #expect(try readOnly.changes(list: "l", since: nil, limit: 100).changes.count == 1)
        #expect(try readOnly.read(mapSize) == 0)
    }

    @Test("a batched insert that breaks a constraint still fails, whichever row of the batch breaks it")
    func batchedInsertFailsOnAConstraint() throws {
        let queue = try DatabaseQueue()
        for duplicate in [1, 99, 100, 101, 250] {
            try queue.writeWithoutTransaction { db in
                try db.execute(sql: "DROP TABLE IF EXISTS t; CREATE TABLE t (k INTEGER PRIMARY KEY) WITHOUT ROWID")
            }
            #expect(throws: DatabaseError.self, "duplicate at row \(duplicate)") {
                try queue.write { db in
                    var insert = try BatchInsert<Int64>(db, into: "t", columns: ["k"]) { value, statement, first in
                        statement.bind(value, at: first)
                    }
                    for key in 0..<300 { try insert.append(Int64(key == duplicate ? 0 : key)) }
                    try insert.finish()
                }
            }
            #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 0)
        }
    }

    @Test("text bound in place reads back byte for byte, the empty string included")
    func textBoundInPlace() throws {
        let queue = try DatabaseQueue()
        let bytes = Array("서울,\"quoted\"".utf8)
        let read = try queue.inDatabase { db in
            let statement = try RawStatement.cached("SELECT ?1, ?2, typeof(?2)", in: db)
            defer { statement.reset() }
            return try bytes.withUnsafeBufferPointer { buffer in
                statement.bind(borrowingUTF8: buffer[...], at: 1)
                statement.bind(borrowingUTF8: buffer[0..<0], at: 2)
                _ = try statement.step()
                return [statement.text(0), statement.text(1), statement.text(2)]
            }
        }
        #expect(read == ["서울,\"quoted\"", "", "text"])
    }
}
