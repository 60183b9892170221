import GRDB

extension Catalog {
    /// The position (0-based) of store `id` in `list`, or nil when the list
    /// does not hold it; throws if there is no such list.
    ///
    /// The list's items are keyed by position, not by store, so this walks
    /// the list's items in order (a seek to the store's key, then a range
    /// scan of one list): fine when a list is reloaded, not per frame.
    public func position(ofStore id: String, inList list: String) throws -> Int? {
        try read { db in
            let list = try listKey(list, db)
            return try firstRow(
                db,
                """
                SELECT i.position FROM list_items AS i
                WHERE i.list = ?1 AND i.store = (SELECT key FROM stores WHERE list = ?1 AND id = ?2)
                ORDER BY i.position LIMIT 1
                """,
                {
                    $0.bind(list, at: 1)
                    $0.bind(id, at: 2)
                },
                { $0.int(0) })
        }
    }
}
