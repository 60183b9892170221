import GRDB

extension Catalog {
    /// Calls `body` with each store of `list` in carousel order, with its
    /// position, from `offset` and at most `limit` of them, one row at a
    /// time: memory stays flat whatever the list's size, and the first
    /// store arrives before the last is read.
    ///
    /// Every row comes from one read transaction (one state of the list).
    /// `body` runs on the catalog's connection: it must not call the catalog.
    public func forEachStore(
        list: String, offset: Int = 0, limit: Int? = nil, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) throws {
        guard offset >= 0 else { throw CatalogError.invalidArgument("the offset cannot be negative (got \(offset))") }
        if let limit, limit < 0 { throw CatalogError.invalidArgument("the limit cannot be negative (got \(limit))") }
        try read { db in
            let key = try listKey(list, db)
            // Positions are dense: the offset is a seek, not a skip.
            let statement = try RawStatement.cached(
                """
                SELECT \(Store.columns), i.position FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = ?1 AND i.position >= ?2 ORDER BY i.position LIMIT ?3
                """, in: db)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            statement.bind(Int64(offset), at: 2)
            statement.bind(limit.map(Int64.init) ?? -1, at: 3)  // LIMIT -1: no limit
            while try statement.step() {
                try body(Int(statement.int64(8)), try Store(statement))
            }
        }
    }

    /// Calls `body` with the store at each of `positions` of `list`, in the
    /// order given (a page of another order, such as by distance): one read
    /// transaction and one prepared statement for all of them.
    public func forEachStore(
        list: String, at positions: some Sequence<Int>, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) throws {
        try read { db in
            let key = try listKey(list, db)
            let statement = try RawStatement.cached(
                """
                SELECT \(Store.columns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = ?1 AND i.position = ?2
                """, in: db)
            defer { statement.reset() }
            for position in positions {
                statement.reset()
                statement.bind(key, at: 1)
                statement.bind(Int64(position), at: 2)
                guard try statement.step() else {
                    throw CatalogError.positionOutOfRange(list: list, position: position, count: try count(key, db))
                }
                try body(position, try Store(statement))
            }
        }
    }

    /// Calls `body` with the position and pin (id and coordinates) of each
    /// store of `list`, in carousel order: what a map's markers and an
    /// order by distance need, without the rest of each store.
    public func forEachPin(list: String, _ body: (_ position: Int, _ pin: StorePin) throws -> Void) throws {
        try read { db in
            let key = try listKey(list, db)
            let statement = try RawStatement.cached(
                """
                SELECT i.position, s.id, s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = ? ORDER BY i.position
                """, in: db)
            defer { statement.reset() }
            statement.bind(key, at: 1)
            while try statement.step() {
                let pin = StorePin(id: statement.text(1) ?? "", latitude: statement.double(2), longitude: statement.double(3))
                try body(Int(statement.int64(0)), pin)
            }
        }
    }
}
