import GRDB
import Geo

extension Catalog {
    /// Up to `limit` stores of `list` from `position` on, in carousel order:
    /// one page of a list that may hold millions (the server's cursor
    /// paging). Empty past the end.
    public func stores(list: String, from position: Int, limit: Int) throws -> [Store] {
        guard position >= 0 else { throw CatalogError.invalidArgument("a list position is 0 or more (got \(position))") }
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        return try read { db in
            let list = try listKey(list, db)
            return try rows(
                db,
                """
                SELECT \(Store.columns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = ?1 AND i.position >= ?2 ORDER BY i.position LIMIT ?3
                """,
                {
                    $0.bind(list, at: 1)
                    $0.bind(Int64(position), at: 2)
                    $0.bind(Int64(limit), at: 3)
                }, Store.init)
        }
    }

    /// Built once, as the statement cache is keyed by the text: the lookup
    /// by id runs per request on the server.
    private static let storeInListByID = """
        SELECT \(Store.columns) FROM stores AS s WHERE s.list = ?1 AND s.id = ?2
        """

    /// The store with id `id` if `list` holds it, else nil; throws when
    /// there is no such list.
    public func store(list: String, id: String) throws -> Store? {
        try read { db in
            let list = try listKey(list, db)
            return try firstRow(
                db, Self.storeInListByID,
                {
                    $0.bind(list, at: 1)
                    $0.bind(id, at: 2)
                }, Store.init)
        }
    }

    /// The first `limit` stores inside `box` (of `list`, or of any list), in
    /// the order of ``stores(in:list:)-2fazn``: the scan stops at the `limit`-th
    /// store, so the first page of a continent reads its southern bands
    /// only (it read the whole continent's index before).
    public func stores(in box: BoundingBox, list: String? = nil, limit: Int) throws -> [Store] {
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        return try read { db in
            var keys: [Int64] = []
            try SpatialIndex.Scanner(list: try list.map { try listKey($0, db) }, db).scan(SearchRegion(box)) { store, _, _ in
                keys.append(store)
                return keys.count < limit
            }
            return try stores(keys: keys, db)
        }
    }
}
