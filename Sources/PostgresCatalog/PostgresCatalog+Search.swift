import PostgresNIO
import StoreCatalog

/// Search on PostgreSQL: StoreCatalog's `SearchRun` over the list's
/// `SearchSnapshot`, as the SQLite catalog searches, so the pages and
/// cursors are the same.
///
/// The snapshot is built for each search from all of the list's stores,
/// where the SQLite catalog keeps it until the catalog changes: keeping it
/// per list version for a node's lifetime comes with the server on
/// PostgreSQL (docs/postgresql.md).
extension PostgresCatalog {
    public func search(_ search: StoreSearch) async throws -> SearchPage {
        try search.validate()
        let list = search.list
        return try await withConnection { connection in
            let key = try await listKey(list, connection)
            let zone =
                try await connection.query("SELECT time_zone FROM lists WHERE key = \(key)", logger: logger)
                .collect(String?.self).first ?? nil
            var builder = SearchSnapshot.Builder(defaultZone: zone)
            let rows = try await connection.query(
                """
                SELECT \(unescaped: Self.storeColumns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) ORDER BY i.position
                """, logger: logger)
            for try await row in rows.decode(StoreRow.self) { builder.append(try Self.store(row)) }
            var run = SearchRun(search, over: builder.build())
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
}
