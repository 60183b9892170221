import GRDB

/// Brings a database to the latest schema: the pending migrations in one
/// transaction with the check of what the file holds, each recorded in
/// `PRAGMA user_version` by that transaction, so a crash leaves the database
/// at a whole version.
package enum Migrator {
    /// The carousel's `PRAGMA application_id`, 'CRSL' (set by 0001).
    package static let applicationID: Int32 = 0x4352_534C

    /// Migrates `db` forward; refuses a newer schema or another
    /// application's database. `path` is for messages.
    ///
    /// The check of what the file holds and every pending migration run in
    /// ONE immediate transaction: a process that finds the file empty holds
    /// the write lock until it is migrated, so another process opening the
    /// same new file at once waits, then finds it migrated — instead of
    /// racing to create the same tables. A refused file is only read.
    package static func migrate(_ db: Database, path: String, migrations: [Migration] = Migration.all) throws {
        try db.inTransaction(.immediate) {
            let version = try checkIdentity(db, path: path, migrations: migrations)
            for migration in migrations where migration.version > version {
                try db.execute(sql: migration.sql)
                try migration.then?(db)
                try db.execute(sql: "PRAGMA user_version = \(migration.version)")
            }
            return .commit
        }
    }

    /// The schema version of `db`, after checking that it is a carousel
    /// catalog this binary can read (or an empty file to become one).
    /// Only reads.
    package static func checkIdentity(_ db: Database, path: String, migrations: [Migration] = Migration.all) throws -> Int {
        let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let known = migrations.last?.version ?? 0
        if version > known {
            throw CatalogError.newerSchema(path: path, found: version, known: known)
        }
        if version == 0 {
            let tables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0
            if tables > 0 {
                throw CatalogError.notACatalog(path: path, reason: "it holds tables of another application")
            }
        } else {
            let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
            if application != applicationID {
                throw CatalogError.notACatalog(path: path, reason: "its application id is \(application)")
            }
            guard version > 0 else {
                throw CatalogError.notACatalog(path: path, reason: "its schema version is \(version)")
            }
            // A version that does not match the tables (set by hand, or by
            // another tool) would run migrations over tables they do not
            // expect ("table stores already exists"): refused instead.
            let tables = Set(
                try String.fetchAll(
                    db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"))
            let storeColumns = Set(try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('stores')"))
            if tables != expectedTables(version: version) || storeColumns.contains("list") != (version >= 5) {
                throw CatalogError.notACatalog(
                    path: path, reason: "its tables are not those of schema \(version), the version it claims")
            }
        }
        return version
    }

    /// The tables a catalog at schema `version` holds (every version
    /// since 1, up to the latest).
    static func expectedTables(version: Int) -> Set<String> {
        var tables: Set<String> = ["stores", "lists", "list_items"]
        if version >= 2 { tables.insert("spatial_index") }
        if version >= 3 { tables.formUnion(["cluster_indexes", "cluster_parts"]) }
        if version >= 6 { tables.insert("api_tokens") }
        // 0007's R*Tree and the three tables SQLite keeps it in, until
        // 0010's tile trees replace it.
        if version >= 7 && version < 10 {
            tables.formUnion(["spatial_tiles", "spatial_tiles_node", "spatial_tiles_rowid", "spatial_tiles_parent"])
        }
        if version >= 8 { tables.insert("counters") }
        if version >= 10 { tables.formUnion(["tile_nodes", "tile_trees"]) }
        if version >= 11 { tables.formUnion(["change_feeds", "feed_entries", "sync_replicas", "sync_entries", "sync_dirty"]) }
        return tables
    }
}
