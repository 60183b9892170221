import GRDB

extension Catalog {
    /// The schema version the database is at, read with one query: what a
    /// readiness probe asks (``info()-1by0z`` counts every store as well).
    public func schemaVersion() throws -> Int {
        try read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
    }

    /// The newest schema version this build knows.
    public static var latestSchemaVersion: Int { Migration.latestVersion }

    /// The newest schema version this build knows (``latestSchemaVersion``,
    /// as a server's readiness check asks an engine for it).
    public var latestSchemaVersion: Int { Migration.latestVersion }
}
