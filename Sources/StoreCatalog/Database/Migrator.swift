import GRDB

/// Brings a database to the latest schema: each pending migration in its own
/// transaction, recorded in `PRAGMA user_version` by the same transaction, so
/// a crash leaves the database at a whole version.
package enum Migrator {
    /// The carousel's `PRAGMA application_id`, 'CRSL' (set by 0001).
    package static let applicationID: Int32 = 0x4352_534C

    /// Migrates `db` forward; refuses a newer schema or another
    /// application's database. `path` is for messages.
    package static func migrate(_ db: Database, path: String, migrations: [Migration] = Migration.all) throws {
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
        }
        for migration in migrations where migration.version > version {
            try db.inTransaction(.immediate) {
                try db.execute(sql: migration.sql)
                try db.execute(sql: "PRAGMA user_version = \(migration.version)")
                return .commit
            }
        }
    }
}
