import GRDB

extension Catalog {
    /// What `carousel info` shows: the schema version, the size the data
    /// takes, and the lists.
    public func info() throws -> CatalogInfo {
        try read { db in
            let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            let stores = try Int.fetchOne(db, sql: "SELECT count(*) FROM stores") ?? 0
            return CatalogInfo(
                path: path, schemaVersion: version, latestSchemaVersion: Migration.latestVersion,
                databaseBytes: pages * pageSize, storeCount: stores, lists: [])
        }
        .with(lists: try lists())
    }
}

/// A catalog at a glance (``Catalog/info()-1by0z``).
public struct CatalogInfo: Sendable, Hashable, Codable {
    /// The database file, or `:memory:`.
    public var path: String
    /// The schema version the database is at (`PRAGMA user_version`).
    public var schemaVersion: Int
    /// The newest schema version this carousel knows; opening migrates up to it.
    public var latestSchemaVersion: Int
    /// The database's size in bytes (pages × page size), the write-ahead log aside.
    public var databaseBytes: Int
    /// How many stores the catalog holds, in all lists.
    public var storeCount: Int
    /// Every list with its store count, by name.
    public var lists: [ListSummary]

    public init(
        path: String, schemaVersion: Int, latestSchemaVersion: Int, databaseBytes: Int, storeCount: Int,
        lists: [ListSummary]
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.latestSchemaVersion = latestSchemaVersion
        self.databaseBytes = databaseBytes
        self.storeCount = storeCount
        self.lists = lists
    }

    fileprivate func with(lists: [ListSummary]) -> CatalogInfo {
        var info = self
        info.lists = lists
        return info
    }
}
