import GRDB

/// The existing stores an import has updated, and the line of each, in a
/// temporary table: how an import tells a store the catalog held from a
/// repeat of it later in the file, in memory that does not grow with the
/// file (temporary tables spill to a file past SQLite's page cache).
///
/// Created inside the import's transaction, so a rollback removes it too;
/// ``drop()`` removes it after a successful import.
struct UpdatedStores {
    private let db: Database
    private let insert: RawStatement
    private let find: RawStatement

    init(_ db: Database) throws {
        self.db = db
        try db.execute(sql: "CREATE TEMP TABLE import_updated (key INTEGER PRIMARY KEY, line INTEGER NOT NULL)")
        insert = RawStatement(try db.makeStatement(sql: """
            INSERT INTO temp.import_updated (key, line) VALUES (?, ?) ON CONFLICT (key) DO NOTHING
            """), in: db)
        find = RawStatement(try db.makeStatement(sql: "SELECT line FROM temp.import_updated WHERE key = ?"), in: db)
    }

    /// Records that the store `key` is updated from `line`; returns the line
    /// that updated it before instead, when there is one.
    func record(_ key: Int64, line: Int) throws -> Int? {
        insert.reset()
        insert.bind(key, at: 1)
        insert.bind(Int64(line), at: 2)
        try insert.step()
        insert.reset()
        guard insert.changes == 0 else { return nil }
        find.reset()
        defer { find.reset() }
        find.bind(key, at: 1)
        guard try find.step() else {
            throw CatalogError.database("updated store \(key) vanished from the import's bookkeeping")
        }
        return find.int(0)
    }

    func drop() throws {
        try db.execute(sql: "DROP TABLE temp.import_updated")
    }
}
