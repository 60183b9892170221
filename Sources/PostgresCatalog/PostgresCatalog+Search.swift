import CatalogServing
import PostgresNIO
import StoreCatalog
import WorkLanes

/// Search on PostgreSQL: StoreCatalog's `SearchRun` over the list's
/// `SearchSnapshot`, as the SQLite catalog searches, so the pages and
/// cursors are the same.
///
/// The snapshot is built from all of the list's stores once per list
/// version and held by the catalog (`maxHeldSearchSnapshots`), as the
/// SQLite catalog keeps it until the catalog changes: a server's searches
/// of an unchanged list read its version, then the candidates' stores.
extension PostgresCatalog {
    /// Search snapshots a catalog holds at most: a server's busiest lists.
    static let maxHeldSearchSnapshots = 4

    public func search(_ search: StoreSearch) async throws -> SearchPage {
        try search.validate()
        let list = search.list
        try Self.refuseNULName(list)
        return try await withConnection { connection in
            let (key, version, zone) = try await searchedList(list, connection)
            let snapshot = try await searchSnapshot(key: key, version: version, zone: zone, connection)
            // Ranking every store of the list: on the bulk lane.
            var run = try await WorkLane.bulk.run { SearchRun(search, over: snapshot) }
            // The candidates' stores a batch at a time: a page usually
            // fills from the first, and attribute filters may skip some.
            var next = run.ranked[...]
            let batch = max(16, search.limit + 1)
            while !next.isEmpty {
                let candidates = Array(next.prefix(batch))
                next = next.dropFirst(batch)
                var stores: [Int: Store] = [:]
                try await forEachStore(list: list, key: key, at: candidates.map { Int64($0.position) }, connection) {
                    position, store in stores[position] = store
                }
                for candidate in candidates {
                    guard run.offer(candidate, store: stores[candidate.position]!) else { return run.page }
                }
            }
            return run.page
        }
    }

    /// The key, version and time zone of list `name`: what its search
    /// snapshot is read and held by.
    func searchedList(_ name: String, _ connection: PostgresConnection) async throws -> (key: Int64, version: Int64, zone: String?) {
        guard
            let found = try await connection.query(
                "SELECT key, version, time_zone FROM lists WHERE name = \(name)", logger: logger
            ).collect((Int64, Int64, String?).self).first
        else { throw CatalogError.listNotFound(name) }
        return found
    }

    /// The search snapshot of the list of `key` at `version`: held, or
    /// read from all of its stores and held.
    func searchSnapshot(key: Int64, version: Int64, zone: String?, _ connection: PostgresConnection) async throws
        -> SearchSnapshot
    {
        let held = "\(key) \(version)"
        if let kept = heldSearchSnapshots.withLock({ $0[held] }) { return kept }
        var builder = SearchSnapshot.Builder(defaultZone: zone)
        let rows = try await connection.query(
            """
            SELECT \(unescaped: Self.storeColumns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
            WHERE i.list = \(key) ORDER BY i.position
            """, logger: logger)
        for try await row in rows.decode(StoreRow.self) { builder.append(try Self.store(row)) }
        let snapshot = try await WorkLane.bulk.run { builder.build() }
        heldSearchSnapshots.withLock { snapshots in
            if snapshots.count >= Self.maxHeldSearchSnapshots { snapshots.removeAll() }
            snapshots[held] = snapshot
        }
        return snapshot
    }
}
