import CatalogServing
import PostgresNIO
import StoreCatalog

/// The rest of `CatalogEngine`: a list streamed in order or at chosen
/// positions, its locations, rename and delete; each in the SQLite
/// catalog's order and words.
extension PostgresCatalog: CatalogEngine {
    /// The URL with its password masked.
    public var location: String { url.description }

    /// The masked URL, the schema version, the database's size
    /// (`pg_database_size`), the stores and the lists.
    public func info() async throws -> CatalogInfo {
        let lists = try await lists()
        return try await withConnection { connection in
            let row = try await connection.query(
                """
                SELECT (SELECT coalesce(max(version), 0) FROM carousel_schema)::bigint,
                       pg_database_size(current_database())::bigint, (SELECT count(*) FROM stores)::bigint
                """, logger: logger
            ).collect((Int, Int, Int).self)[0]
            return CatalogInfo(
                path: location, schemaVersion: row.0, latestSchemaVersion: Self.latestSchemaVersion, databaseBytes: row.1,
                storeCount: row.2, lists: lists)
        }
    }

    /// Where the store at `position` of `list` is: one statement, a seek on
    /// each primary key.
    public func location(list: String, at position: Int) async throws -> StorePin {
        try Self.refuseNULName(list)
        return try await withConnection { connection in
            let found = try await connection.query(
                """
                SELECT s.id, s.latitude, s.longitude
                FROM lists AS l
                JOIN list_items AS i ON i.list = l.key AND i.position = \(position)
                JOIN stores AS s ON s.key = i.store
                WHERE l.name = \(list)
                """, logger: logger
            ).collect((String, Double, Double).self).first
            guard let found else {
                throw CatalogError.positionOutOfRange(list: list, position: position, count: try await count(list, connection))
            }
            return StorePin(id: found.0, latitude: found.1, longitude: found.2)
        }
    }

    /// The position of store `id` in `list`: the store by `UNIQUE (list,
    /// id)`, then its item.
    public func position(ofStore id: String, inList list: String) async throws -> Int? {
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            // An id with a NUL is no store's: imports refuse one.
            if PostgresText.holdsNUL(id) { return nil }
            return try await connection.query(
                """
                SELECT i.position::bigint FROM stores AS s JOIN list_items AS i ON i.list = s.list AND i.store = s.key
                WHERE s.list = \(key) AND s.id = \(id)
                ORDER BY i.position LIMIT 1
                """, logger: logger
            ).collect(Int.self).first
        }
    }

    /// Calls `body` with each store of `list` in carousel order from
    /// `offset`, at most `limit` of them: one statement, so one state of
    /// the list, its rows streamed as they arrive (postgres-nio reads
    /// ahead a bounded number of rows), so memory stays flat.
    public func forEachStore(
        list: String, offset: Int = 0, limit: Int? = nil, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws {
        guard offset >= 0 else { throw CatalogError.invalidArgument("the offset cannot be negative (got \(offset))") }
        if let limit, limit < 0 { throw CatalogError.invalidArgument("the limit cannot be negative (got \(limit))") }
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            // LIMIT NULL is no limit.
            let rows = try await connection.query(
                """
                SELECT i.position, \(unescaped: Self.storeColumns)
                FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) AND i.position >= \(Int64(offset)) ORDER BY i.position LIMIT \(limit.map(Int64.init))
                """, logger: logger)
            for try await row in rows.decode((Int64, String, String, Double, Double, String?, String?, String?, String?).self) {
                try body(Int(row.0), try Self.store((row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8)))
            }
        }
    }

    /// Calls `body` with the store at each of `positions` of `list`, in the
    /// order given: one statement over the positions as an array.
    public func forEachStore(
        list: String, at positions: some Sequence<Int>, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws {
        let wanted = positions.map(Int64.init)
        try await withConnection { connection in
            try await forEachStore(list: list, key: try await listKey(list, connection), at: wanted, connection, body)
        }
    }

    /// ``forEachStore(list:at:_:)`` on an open connection, for the list of
    /// key `key`.
    func forEachStore(
        list: String, key: Int64, at wanted: [Int64], _ connection: PostgresConnection,
        _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws {
        guard !wanted.isEmpty else { return }
        let rows = try await connection.query(
            """
            SELECT p.position, s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes::text
            FROM unnest(\(wanted)::bigint[]) WITH ORDINALITY AS p(position, n)
            LEFT JOIN list_items AS i ON i.list = \(key) AND i.position = p.position
            LEFT JOIN stores AS s ON s.key = i.store
            ORDER BY p.n
            """, logger: logger)
        for try await row in rows.decode(
            (Int64, String?, String?, Double?, Double?, String?, String?, String?, String?).self)
        {
            guard let id = row.1, let name = row.2, let latitude = row.3, let longitude = row.4 else {
                throw CatalogError.positionOutOfRange(
                    list: list, position: Int(row.0), count: try await count(list, connection))
            }
            try body(Int(row.0), try Self.store((id, name, latitude, longitude, row.5, row.6, row.7, row.8)))
        }
    }

    /// Calls `body` with the position and coordinates of each store of
    /// `list`, in carousel order, streamed.
    public func forEachPin(list: String, _ body: (_ position: Int, _ pin: StorePin) throws -> Void) async throws {
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            let rows = try await connection.query(
                """
                SELECT i.position, s.id, s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) ORDER BY i.position
                """, logger: logger)
            for try await row in rows.decode((Int64, String, Double, Double).self) {
                try body(Int(row.0), StorePin(id: row.1, latitude: row.2, longitude: row.3))
            }
        }
    }

    /// Renames a list; refused, as by the SQLite catalog, when the new name
    /// is not a valid list name or is another list's.
    public func renameList(_ name: String, to newName: String) async throws {
        try NameCharacters.checkListName(newName)
        let changeLog = changeLogOptions
        try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let key = try await listKey(name, connection)
                guard name != newName else { return }
                let taken = try await connection.query("SELECT key FROM lists WHERE name = \(newName)", logger: logger)
                    .collect(Int64.self)
                guard taken.isEmpty else { throw CatalogError.renameTaken(name, to: newName) }
                try await connection.query("UPDATE lists SET name = \(newName) WHERE key = \(key)", logger: logger)
                // Feeds follow names, as on SQLite (Catalog+ListManagement).
                try await PostgresChangeLog.record(name: name, list: nil, connection, options: changeLog, logger: logger)
                try await PostgresChangeLog.record(name: newName, list: key, connection, options: changeLog, logger: logger)
            }
        }
    }

    /// Deletes a list, its items and its stores, in one transaction.
    @discardableResult
    public func deleteList(_ name: String) async throws -> ListDeletion {
        let changeLog = changeLogOptions
        return try await withConnection { connection in
            try await connection.withTransaction(logger: logger) { connection in
                let key = try await listKey(name, connection)
                let count = try await count(name, connection)
                try await connection.query("DELETE FROM list_items WHERE list = \(key)", logger: logger)
                let removed =
                    try await connection.query(
                        "WITH gone AS (DELETE FROM stores WHERE list = \(key) RETURNING 1) SELECT count(*)::bigint FROM gone",
                        logger: logger
                    ).collect(Int.self).first ?? 0
                try await connection.query("DELETE FROM lists WHERE key = \(key)", logger: logger)
                try await PostgresChangeLog.record(name: name, list: nil, connection, options: changeLog, logger: logger)
                return ListDeletion(name: name, count: count, removedStores: removed)
            }
        }
    }
}
