import Foundation
import GRDB
import GRDBSQLite
import TestSupport

@testable import StoreCatalog

/// Where a test catalog lives: storage tests run against both, as GRDB's own
/// tests do.
enum Storage: String, CaseIterable, Sendable {
    case memory, file
}

/// A fresh catalog, and the temporary folder that holds its file (removed
/// when the value goes away).
struct TestCatalog {
    let catalog: Catalog
    let directory: TemporaryDirectory?

    init(_ storage: Storage) throws {
        switch storage {
        case .memory:
            catalog = try Catalog.inMemory()
            directory = nil
        case .file:
            let directory = try TemporaryDirectory("catalog-test")
            catalog = try Catalog(path: directory.path("catalog.sqlite").path)
            self.directory = directory
        }
    }
}

extension Catalog {
    /// Every table's rows in key order and the schema version: two dumps are
    /// equal when the content is.
    func dump() throws -> String {
        try read { db in
            var text = "user_version \(try Int.fetchOne(db, sql: "PRAGMA user_version")!)\n"
            for (table, key) in [
                ("stores", "key"), ("lists", "key"), ("list_items", "list, position"),
                ("spatial_index", "band, longitude, latitude, store, list"),
            ] {
                text += "-- \(table)\n"
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY \(key)") {
                    text += "\(row)\n"
                }
            }
            return text
        }
    }

    /// The rows of one list in every table (its key, stores, items and
    /// index entries): equal dumps mean nothing of the list changed.
    func dump(list name: String) throws -> String {
        try read { db in
            let key = try Int64.fetchOne(db, sql: "SELECT key FROM lists WHERE name = ?", arguments: [name])
            var text = "list \(name) key \(key.map(String.init) ?? "none")\n"
            for (table, order) in [
                ("stores", "key"), ("list_items", "position"), ("spatial_index", "band, longitude, latitude, store"),
            ] {
                text += "-- \(table)\n"
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE list = ? ORDER BY \(order)", arguments: [key]) {
                    text += "\(row)\n"
                }
            }
            return text
        }
    }

    /// The spatial index as it is, and as it should be from the lists and
    /// their stores' coordinates.
    func spatialIndexVersusDerived() throws -> (actual: [Row], derived: [Row]) {
        try read { db in
            let order = "ORDER BY band, longitude, latitude, store, list"
            let actual = try Row.fetchAll(
                db, sql: "SELECT band, longitude, latitude, store, list FROM spatial_index \(order)")
            let derived = try Row.fetchAll(
                db,
                sql: """
                    SELECT \(SpatialIndex.bandSQL(latitude: "s.latitude")) AS band, s.longitude AS longitude,
                           s.latitude AS latitude, s.key AS store, i.list AS list
                    FROM list_items AS i JOIN stores AS s ON s.key = i.store \(order)
                    """)
            return (actual, derived)
        }
    }

    /// `EXPLAIN QUERY PLAN` of a statement, its detail lines joined.
    func queryPlan(_ sql: String) throws -> String {
        try read { db in
            // Parameters bound to NULL: the plan does not depend on them.
            let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
            let count = Int(sqlite3_bind_parameter_count(statement.sqliteStatement))
            statement.setUncheckedArguments(StatementArguments(Array(repeating: DatabaseValue.null, count: count)))
            return try Row.fetchAll(statement).map { $0["detail"] as String }
                .joined(separator: "\n")
        }
    }

    /// Runs raw SQL on the catalog's connection, in a write transaction.
    func execute(_ sql: String) throws {
        try write { db in try db.execute(sql: sql) }
    }
}

extension Catalog {
    /// The SQL of every statement `body` runs on the catalog's connection.
    func statements(of body: () throws -> Void) throws -> [String] {
        let recorded = Recorded()
        database.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case let .statement(statement) = event { recorded.sql.append(statement.sql) }
            }
        }
        defer { database.writeWithoutTransaction { db in db.trace(options: .statement, nil) } }
        try body()
        return recorded.sql
    }
}

/// Filled on the catalog's serial queue, read after it is done.
private final class Recorded: @unchecked Sendable {
    var sql: [String] = []
}
