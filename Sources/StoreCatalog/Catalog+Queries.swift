import GRDB
import Geo

extension Catalog {
    /// Every list with its store count, by name.
    public func lists() throws -> [ListSummary] {
        try read { db in
            // A cached statement: compiling this one took longer than running it.
            let lists = try rows(
                db,
                """
                SELECT name, coalesce((SELECT max(position) + 1 FROM list_items WHERE list = lists.key), 0)
                FROM lists ORDER BY name
                """, { _ in }
            ) { ListSummary(name: $0.text(0) ?? "", count: $0.int(1)) }
            if lists.contains(where: { $0.count == 0 }) { try checkIntact(db) }
            return lists
        }
    }

    /// How many stores `list` holds. Positions are dense, so this is the
    /// last position + 1: one index seek, not a count.
    public func count(list: String) throws -> Int {
        try read { db in try count(listKey(list, db), db) }
    }

    func count(_ list: Int64, _ db: Database) throws -> Int {
        let count = try rows(db, "SELECT coalesce(max(position) + 1, 0) FROM list_items WHERE list = ?", { $0.bind(list, at: 1) }) {
            $0.int(0)
        }[0]
        if count == 0 { try checkIntact(db) }
        return count
    }

    /// The stores of `list` in carousel order.
    public func stores(list: String) throws -> [Store] {
        try read { db in
            let list = try listKey(list, db)
            let stores = try rows(
                db,
                """
                SELECT \(Store.columns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = ? ORDER BY i.position
                """,
                { $0.bind(list, at: 1) }, Store.init)
            if stores.isEmpty { try checkIntact(db) }
            return stores
        }
    }

    /// The store with id `id` in any list, if any. Ids are unique within a
    /// list only: when several lists hold `id`, this is the one imported
    /// first (the lowest key). ``store(list:id:)-1y8lq`` names the list.
    public func store(id: String) throws -> Store? {
        try read { db in
            // One seek on the unique (list, id) index per list: there is no
            // index on the id alone, which every import would pay for.
            try firstRow(
                db,
                """
                SELECT \(Store.columns) FROM stores AS s
                WHERE s.key = (SELECT min(x.key) FROM lists AS l JOIN stores AS x ON x.list = l.key AND x.id = ?)
                """, { $0.bind(id, at: 1) }, Store.init)
        }
    }

    /// The store at `position` (0-based) of `list`: one statement, three
    /// index seeks.
    public func store(list: String, at position: Int) throws -> Store {
        try at(position, of: list, sql: Self.storeAtPosition, Store.init)
    }

    /// Where the store at `position` of `list` is, without the rest of it:
    /// what the map side needs per focused card.
    public func location(list: String, at position: Int) throws -> StorePin {
        try at(position, of: list, sql: Self.locationAtPosition) {
            StorePin(id: $0.text(0) ?? "", latitude: $0.double(1), longitude: $0.double(2))
        }
    }

    private static let storeByKey = "SELECT \(Store.columns) FROM stores AS s WHERE s.key = ?"

    // Built once: the statement cache is keyed by the SQL text, and these
    // run per focused card.
    private static let storeAtPosition = atPositionSQL(columns: Store.columns)
    private static let locationAtPosition = atPositionSQL(columns: "s.id, s.latitude, s.longitude")

    private static func atPositionSQL(columns: String) -> String {
        """
        SELECT \(columns)
        FROM lists AS l
        JOIN list_items AS i ON i.list = l.key AND i.position = ?2
        JOIN stores AS s ON s.key = i.store
        WHERE l.name = ?1
        """
    }

    /// The row `sql` selects for `position` of `list`, or why there is none.
    private func at<T>(_ position: Int, of list: String, sql: String, _ decode: (RawStatement) throws -> T) throws -> T {
        let found = try read { db in
            try firstRow(
                db, sql,
                {
                    $0.bind(list, at: 1)
                    $0.bind(Int64(position), at: 2)
                }, decode)
        }
        guard let found else {
            throw CatalogError.positionOutOfRange(list: list, position: position, count: try count(list: list))
        }
        return found
    }

    /// The `limit` stores nearest to `origin` by great-circle distance,
    /// nearest first, optionally only within `withinMeters` and only of
    /// `list`. Exact, searched best-first over the tiles of the spatial
    /// index (`NearestTileSearch`). A radius beyond half
    /// the Earth's circumference, infinity included (a radius in kilometres
    /// such as 1e308 overflows to it in meters), bounds nothing.
    public func nearest(
        to origin: Coordinate, limit: Int = 10, withinMeters: Double? = nil, list: String? = nil
    ) throws -> [StoreDistance] {
        let maxRadius = try Self.checkNearest(origin, limit: limit, withinMeters: withinMeters)
        return try read { db in
            let search = NearestTileSearch(
                origin: origin, limit: limit, maxRadius: maxRadius, list: try list.map { try listKey($0, db) })
            let found = try search.run(db)
            return try zip(stores(keys: found.map(\.store), db), found).map {
                StoreDistance(store: $0, distanceMeters: $1.distance)
            }
        }
    }

    /// `nearest(to:limit:withinMeters:list:)` the slow way, measuring every
    /// store: the reference the spatial index is tested and benchmarked
    /// against. Not part of the API an app uses: it is reached only through
    /// `@_spi(Reference) import StoreCatalog`.
    @_spi(Reference)
    public func nearestByFullScan(
        to origin: Coordinate, limit: Int = 10, withinMeters: Double? = nil, list: String? = nil
    ) throws -> [StoreDistance] {
        let maxRadius = try Self.checkNearest(origin, limit: limit, withinMeters: withinMeters)
        let meter = DistanceFrom(origin)
        return try read { db in
            let list = try list.map { try listKey($0, db) }
            let sql =
                list == nil
                ? "SELECT key, latitude, longitude FROM stores"
                : "SELECT s.key, s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store WHERE i.list = ?"
            var found: [(store: Int64, distance: Double)] = []
            _ = try rows(db, sql, { if let list { $0.bind(list, at: 1) } }) { row in
                let distance = meter.meters(toLatitude: row.double(1), longitude: row.double(2))
                if distance <= maxRadius { found.append((row.int64(0), distance)) }
            }
            found.keepNearest(limit) { ($0.distance, $0.store) }
            return try zip(stores(keys: found.map(\.store), db), found).map {
                StoreDistance(store: $0, distanceMeters: $1.distance)
            }
        }
    }

    /// The arguments of a nearest search checked; the search's radius.
    static func checkNearest(_ origin: Coordinate, limit: Int, withinMeters: Double?) throws -> Double {
        guard origin.isValid else { throw CatalogError.invalidArgument("\(origin) is not a valid latitude,longitude") }
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        guard let withinMeters else { return Haversine.maximumDistanceMeters }
        guard withinMeters >= 0 else {  // NaN too
            throw CatalogError.invalidArgument("the radius must be a distance of 0 or more (got \(withinMeters))")
        }
        return min(withinMeters, Haversine.maximumDistanceMeters)
    }

    /// The stores inside `box`, of `list` or of any list, in index order
    /// (by latitude band, then longitude).
    public func stores(in box: BoundingBox, list: String? = nil) throws -> [Store] {
        try read { db in
            var keys: [Int64] = []
            try SpatialIndex.scan(SearchRegion(box), list: try list.map { try listKey($0, db) }, db) { store, _, _ in
                keys.append(store)
            }
            return try stores(keys: keys, db)
        }
    }

    /// The stores with these keys, in their order: the stores a search
    /// found. One statement for all, fetched from the cache once (each
    /// fetch hashes its SQL text), stepped to its first row per key.
    func stores(keys: [Int64], _ db: Database) throws -> [Store] {
        let statement = try RawStatement.cached(Self.storeByKey, in: db)
        defer { statement.reset() }
        return try keys.map { key in
            statement.reset()
            statement.bind(key, at: 1)
            guard try statement.step() else {
                throw CatalogError.database("the spatial index names store \(key), which is missing")
            }
            return try Store(statement)
        }
    }

    /// The first row of a cached statement, decoded; nil when there is none.
    func firstRow<T>(
        _ db: Database, _ sql: String, _ bind: (RawStatement) -> Void, _ decode: (RawStatement) throws -> T
    ) throws -> T? {
        let statement = try RawStatement.cached(sql, in: db)
        defer { statement.reset() }
        bind(statement)
        return try statement.step() ? decode(statement) : nil
    }

    /// Runs a cached statement through the C API: `bind`, then `decode`
    /// each row. GRDB's `Row` costs more per row than these lookups.
    func rows<T>(
        _ db: Database, _ sql: String, _ bind: (RawStatement) -> Void, _ decode: (RawStatement) throws -> T
    ) throws -> [T] {
        let statement = try RawStatement.cached(sql, in: db)
        defer { statement.reset() }
        bind(statement)
        var decoded: [T] = []
        while try statement.step() { decoded.append(try decode(statement)) }
        return decoded
    }
}
