import Foundation
import GRDB
import TestSupport
import Testing

@testable import StoreCatalog

@Suite("Migrations")
struct MigrationTests {
    @Test("a new database is created at the latest schema, in WAL mode")
    func freshDatabaseIsMigratedToLatest() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("fresh.sqlite").path
        let catalog = try Catalog(path: path)
        let (version, application, journal, tables) = try catalog.database.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA user_version"),
                try Int32.fetchOne(db, sql: "PRAGMA application_id"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode"),
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            )
        }
        #expect(version == Migration.latestVersion)
        #expect(application == Migrator.applicationID)
        #expect(journal == "wal")
        #expect(
            tables == [
                "api_tokens", "change_feeds", "cluster_indexes", "cluster_parts", "counters", "feed_entries", "list_items", "lists",
                "spatial_index", "stores", "sync_dirty", "sync_entries", "sync_replicas", "tile_nodes", "tile_trees",
            ])
        #expect(try catalog.lists().isEmpty)
    }

    @Test("opening an up-to-date database again changes nothing")
    func reopeningIsIdempotent() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.sqlite").path
        let first = try Catalog(path: path)
        try first.importList(
            named: "one",
            from: ArrayRowReader(stores: [
                Store(id: "a", name: "A", latitude: 1, longitude: 2)
            ]))
        let before = try first.dump()
        let again = try Catalog(path: path)
        #expect(try again.dump() == before)
    }

    @Test("a schema-1 catalog is migrated forward with its data and gets its spatial index")
    func olderCatalogIsUpgraded() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.path("old.sqlite")
        try FileManager.default.copyItem(at: Paths.fixtures.appendingPathComponent("catalog-schema1.sqlite"), to: copy)

        let catalog = try Catalog(path: copy.path)

        #expect(
            try catalog.database.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
                == Migration.latestVersion)
        #expect(try catalog.lists() == [ListSummary(name: "seoul", count: 2), ListSummary(name: "south", count: 3)])
        #expect(try catalog.stores(list: "seoul").map(\.id) == ["s2", "s1"])
        #expect(try catalog.store(id: "s1")?.attributes == ["floor": "1"])
        // s1 was shared by both lists: each has its own copy now (0005).
        #expect(try catalog.store(list: "south", id: "s1") == catalog.store(list: "seoul", id: "s1"))
        #expect(try catalog.stores(list: "south").map(\.id) == ["s1", "s4", "s3"])
        #expect(try catalog.info().storeCount == 5)
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual.count == 5)
        #expect(index.actual == index.derived)
        // The index built by the migration answers queries.
        let nearest = try catalog.nearest(to: Coordinate(latitude: 35.16, longitude: 129.16), limit: 1)
        #expect(nearest.map(\.store.id) == ["s3"])
    }

    @Test("a database from a newer carousel is refused, untouched")
    func newerSchemaIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("newer.sqlite").path
        let newer = Migration.latestVersion + 1
        try Catalog(path: path).execute("PRAGMA user_version = \(newer)")
        let before = try schemaAndVersion(path)

        let error = #expect(throws: CatalogError.self) { try Catalog(path: path) }

        #expect(error == .newerSchema(path: path, found: newer, known: Migration.latestVersion))
        #expect(
            error?.description.contains(
                "written with a newer catalog schema (\(newer)) than this version knows (up to \(Migration.latestVersion))"
            ) == true)
        #expect(try schemaAndVersion(path) == before)
    }

    private func schemaAndVersion(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name || coalesce(sql, '') FROM sqlite_master ORDER BY name")
                + [String(try Int.fetchOne(db, sql: "PRAGMA user_version")!)]
        }
    }

    @Test("a file that is not SQLite is refused with its path")
    func nonSQLiteFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("notes.sqlite", String(repeating: "just some text\n", count: 100))

        let error = #expect(throws: CatalogError.self) { try Catalog(path: file.path) }

        guard case let .notACatalog(path, _) = error else {
            Issue.record("expected notACatalog, got \(String(describing: error))")
            return
        }
        #expect(path == file.path)
    }

    @Test("another application's SQLite database is refused, not migrated")
    func foreignDatabaseIsRefused() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("other.sqlite").path
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }

        let error = #expect(throws: CatalogError.self) { try Catalog(path: path) }

        guard case .notACatalog = error else {
            Issue.record("expected notACatalog, got \(String(describing: error))")
            return
        }
        #expect(try DatabaseQueue(path: path).read { db in try db.tableExists("stores") } == false)
    }

    @Test("every Migrations/*.sql file is compiled in, byte for byte, numbered 1, 2, 3…")
    func embeddedMigrationsMatchTheFiles() throws {
        let folder = Paths.packageRoot.appendingPathComponent("Migrations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") }.sorted()
        #expect(Migration.all.map(\.fileName) == files)
        // Numbered 1, 2, 3…: each version is its file's number, in order.
        #expect(Migration.all.map(\.version) == files.map { Int($0.prefix { $0.isNumber })! })
        #expect(Migration.all.map(\.version) == Array(1...files.count))
        for migration in Migration.all {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.fileName), encoding: .utf8)
            #expect(migration.sql == text, "\(migration.fileName) differs from the compiled copy")
        }
    }

    @Test(
        "the band formula in Swift and in migration 0004's SQL agree",
        arguments: [
            -90.0, -89.99, -45.125, -0.25, -0.0000001, 0, 0.2499999, 0.25, 0.015625, 0.0156249, 37.5665, 89.75, 89.9999999, 90,
        ])
    func bandFormulaAgreesWithSQL(latitude: Double) throws {
        // The expression exactly as 0004 writes it, so that a change to
        // either side shows here.
        let expression = "CAST((latitude + 90.0) * 64.0 AS INTEGER)"
        #expect(Migration.all[3].sql.contains(expression))
        let sqlBand = try DatabaseQueue().read { db in
            try Int64.fetchOne(db, sql: "SELECT \(expression) FROM (SELECT ? AS latitude)", arguments: [latitude])
        }
        #expect(SpatialIndex.band(latitude: latitude) == sqlBand)
    }

    @Test("0004 rebuilds a schema-3 index in 1/64° bands, keeping stored cluster indexes and their triggers")
    func finerBandsMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v3.sqlite").path
        // A catalog as schema 3 wrote it: ¼° bands, a stored cluster index.
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try Migrator.migrate(db, path: path, migrations: Array(Migration.all.prefix(3)))
            try db.execute(
                sql: """
                    INSERT INTO lists (key, name) VALUES (1, 'seoul');
                    INSERT INTO stores (key, id, name, latitude, longitude) VALUES
                        (1, 'a', 'A', 37.5665, 126.978), (2, 'b', 'B', 37.4979, 127.0276), (3, 'c', 'C', -33.8688, 151.2093);
                    INSERT INTO list_items (list, position, store) VALUES (1, 0, 1), (1, 1, 2), (1, 2, 3);
                    INSERT INTO spatial_index (band, longitude, latitude, store, list)
                        SELECT CAST((s.latitude + 90.0) * 4.0 AS INTEGER), s.longitude, s.latitude, s.key, i.list
                        FROM list_items AS i JOIN stores AS s ON s.key = i.store;
                    INSERT INTO cluster_indexes (list, format, points, options) VALUES (1, 1, 3, 'o');
                    INSERT INTO cluster_parts (list, kind, zoom, bytes) VALUES (1, 0, 0, x'00');
                    """)
        }
        let catalog = try Catalog(path: path)
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual.count == 3)
        #expect(index.actual == index.derived)
        #expect(index.actual.map { $0["band"] as Int64 }.contains(SpatialIndex.band(latitude: 37.5665)))
        // No store moved: the stored cluster index is still valid.
        #expect(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_parts") } == 1)
        // The triggers on the rebuilt table still drop it when a membership goes.
        try catalog.execute("DELETE FROM spatial_index WHERE store = 3")
        #expect(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_indexes") } == 0)
        #expect(try catalog.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM cluster_parts") } == 0)
        // A box query on the new bands finds the Seoul stores.
        let found = try catalog.stores(in: BoundingBox(south: 37.4, west: 126.9, north: 37.6, east: 127.1))
        #expect(Set(found.map(\.id)) == ["a", "b"])
    }

    @Test("0005 gives each list its own copy of a shared store, losing nothing, and keeps unshared keys")
    func storesPerListMigration() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("v4.sqlite").path
        // A catalog as schema 4 wrote it: "a" and "b" share s1 and s2, "c"
        // shares nothing; "a" and "c" have stored cluster indexes, and one
        // store (key 9) is in no list.
        try DatabaseQueue(path: path).writeWithoutTransaction { db in
            try Migrator.migrate(db, path: path, migrations: Array(Migration.all.prefix(4)))
            try db.execute(
                sql: """
                    INSERT INTO lists (key, name) VALUES (1, 'a'), (2, 'b'), (3, 'c');
                    INSERT INTO stores (key, id, name, latitude, longitude, phone, attributes) VALUES
                        (1, 's1', 'One', 37.5, 127.0, '02-111', '{"floor":"1"}'), (2, 's2', 'Two', 35.1, 129.0, NULL, NULL),
                        (3, 's3', 'Three', -33.8, 151.2, NULL, NULL), (4, 'c1', 'C', 1, 2, NULL, NULL),
                        (9, 'orphan', 'Nobody', 0, 0, NULL, NULL);
                    INSERT INTO list_items (list, position, store) VALUES
                        (1, 0, 1), (1, 1, 2), (2, 0, 3), (2, 1, 2), (2, 2, 1), (3, 0, 4);
                    INSERT INTO spatial_index (band, longitude, latitude, store, list)
                        SELECT CAST((s.latitude + 90.0) * 64.0 AS INTEGER), s.longitude, s.latitude, s.key, i.list
                        FROM list_items AS i JOIN stores AS s ON s.key = i.store;
                    INSERT INTO cluster_indexes (list, format, points, options) VALUES (1, 1, 2, 'o'), (3, 1, 1, 'o');
                    INSERT INTO cluster_parts (list, kind, zoom, bytes) VALUES (1, 0, 0, x'00'), (3, 0, 0, x'00');
                    PRAGMA user_version = 4;
                    """)
        }
        let listsBefore = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT l.name, i.position, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes
                    FROM lists AS l JOIN list_items AS i ON i.list = l.key JOIN stores AS s ON s.key = i.store
                    ORDER BY l.name, i.position
                    """)
        }

        let catalog = try Catalog(path: path)

        let listsAfter = try catalog.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT l.name, i.position, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes
                    FROM lists AS l JOIN list_items AS i ON i.list = l.key JOIN stores AS s ON s.key = i.store AND s.list = l.key
                    ORDER BY l.name, i.position
                    """)
        }
        #expect(listsAfter == listsBefore)
        // "a" (the lowest key) kept s1 and s2 as keys 1 and 2; "b" got copies
        // 10 and 11 (above the highest key, 9), in (list, store) order.
        let keys = try catalog.read { db in
            try Row.fetchAll(db, sql: "SELECT key, list, id FROM stores ORDER BY key").map {
                "\($0["key"] as Int64) \($0["list"] as Int64) \($0["id"] as String)"
            }
        }
        #expect(keys == ["1 1 s1", "2 1 s2", "3 2 s3", "4 3 c1", "10 2 s1", "11 2 s2"])
        let index = try catalog.spatialIndexVersusDerived()
        #expect(index.actual == index.derived)
        #expect(index.actual.count == 6)
        // Unchanged lists keep their stored cluster indexes.
        #expect(try catalog.read { db in try Int64.fetchAll(db, sql: "SELECT list FROM cluster_indexes ORDER BY list") } == [1, 3])
        // Now apart: replacing "b" with other data for s1 leaves "a"'s s1.
        try catalog.importList(
            named: "b", from: ArrayRowReader(stores: [Store(id: "s1", name: "Other", latitude: 1, longitude: 2)]),
            options: .init(replace: true))
        #expect(
            try catalog.store(list: "a", id: "s1")
                == Store(id: "s1", name: "One", latitude: 37.5, longitude: 127.0, phone: "02-111", attributes: ["floor": "1"]))
        #expect(try catalog.store(list: "b", id: "s1")?.name == "Other")
        #expect(try catalog.info().storeCount == 4)
    }
}
