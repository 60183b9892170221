import GRDB

extension ChangeLog {
    /// A feed's first version of a list, logged as a range over the list
    /// itself instead of a row per store (migration 0012).
    ///
    /// The store at position `p` of list `list` is the feed's upsert
    /// number `start + p + 1`, at rank `(p + 1) × spacing`, with its
    /// content as the store's row holds it, stamped `at`. That is the row
    /// a first import would have written for it, so nothing reading the
    /// feed can tell the two apart; ElectricSQL's shapes start the same
    /// way, from a snapshot of the table and a log of what came after it.
    ///
    /// Why: the log's 234,908 rows were what kept the import with the
    /// change log over 1.2× the import without it (1.19–1.39×, medians of
    /// 11–15 alternating runs of `Benchmarks/scripts/import-ratio.sh`):
    /// SQLite's inserts into the rows' two B-trees, then their bytes in
    /// the commit and the checkpoint, about 145 ms of the writing thread.
    /// A base is one row of `change_feeds`.
    ///
    /// While a feed has a base, `feed_entries` holds:
    /// - tombstones numbered at most `start` (of ids not in the list:
    ///   the first version's ids' own tombstones are deleted as it is
    ///   recorded);
    /// - upserts numbered above `start + count`, of stores of the list
    ///   whose content changed in place (a replica's update of a few
    ///   stores, ``recordContentChanges(name:_:_:options:)``): each hides
    ///   its store's base entry.
    ///
    /// So the feed in sequence order is those tombstones, then the base,
    /// then those upserts. Any other write to the feed, and any write that
    /// deletes the list's rows (a replace, a delete), first writes the
    /// base's entries as rows (``materializeBase(of:_:)``): the diff of a
    /// replace reads the rows, and the list's stores are about to go.
    struct Base {
        var list: Int64
        var start: Int64
        var count: Int64
        var at: Int64

        /// The sequence number past the base's last.
        var end: Int64 { start + count }

        func sequence(position: Int64) -> Int64 { start + position + 1 }

        static func rank(position: Int64) -> Int64 { (position + 1) * ChangeLog.spacing }
    }

    static func base(of feed: Int64, _ db: Database) throws -> Base? {
        let statement = try RawStatement.cached(
            "SELECT base_list, base_start, base_count, base_at FROM change_feeds WHERE key = ? AND base_list IS NOT NULL",
            in: db)
        defer { statement.reset() }
        statement.bind(feed, at: 1)
        guard try statement.step() else { return nil }
        return Base(list: statement.int64(0), start: statement.int64(1), count: statement.int64(2), at: statement.int64(3))
    }

    static func setBase(_ base: Base?, of feed: Int64, _ db: Database) throws {
        try db.execute(
            sql: "UPDATE change_feeds SET base_list = ?, base_start = ?, base_count = ?, base_at = ? WHERE key = ?",
            arguments: [base?.list, base?.start ?? 0, base?.count ?? 0, base?.at ?? 0, feed])
    }

    /// Writes the base of every feed whose first version is list `list`
    /// as rows: called before the list's rows are deleted.
    static func materializeBases(ofList list: Int64, _ db: Database) throws {
        for feed in try Int64.fetchAll(db, sql: "SELECT key FROM change_feeds WHERE base_list = ?", arguments: [list]) {
            try materializeBase(of: feed, db)
        }
    }

    /// Writes feed `feed`'s base, if it has one, as the rows a first
    /// import writes (plain inserts, a hundred to a statement), except
    /// for the stores an upsert since hides, and clears it. The feed's
    /// counters do not change: they counted the base when it was recorded.
    ///
    /// The rows go in id order up to `idOrderLimit` stores
    /// (``writeInIdOrder(_:skipping:into:_:)``): the table, keyed by id,
    /// then grows at its right edge, and only its small index by sequence
    /// number takes them out of order. In list order past it.
    static func materializeBase(of feed: Int64, _ db: Database, idOrderLimit: Int = Self.idOrderLimit) throws {
        guard let base = try base(of: feed, db) else { return }
        let hidden = try Set(
            String.fetchAll(
                db, sql: "SELECT id FROM feed_entries WHERE feed = ? AND seq > ?", arguments: [feed, base.end]))
        var rows = try EntryRows(feed: feed, at: base.at, db)
        if base.count <= idOrderLimit {
            try writeInIdOrder(base, skipping: hidden, into: &rows, db)
        } else {
            let statement = try storesInOrder(base.list, db)
            defer { statement.reset() }
            var position: Int64 = 0
            while try statement.step() {
                defer { position += 1 }
                let id = statement.text(0) ?? ""
                guard !hidden.contains(id) else { continue }
                try rows.write(
                    id: id, seq: base.sequence(position: position), rank: Base.rank(position: position),
                    content: ChangeHash.content(statement))
            }
        }
        try rows.finish()
        guard rows.count + Int64(hidden.count) == base.count else {
            throw CatalogError.database(
                "the change log's base of list \(base.list) has \(base.count) stores; the list has \(rows.count + Int64(hidden.count))")
        }
        try setBase(nil, of: feed, db)
    }

    /// The rows of base `base`'s stores read in id order and written as
    /// they are read, each numbered and ranked by its place in the list
    /// (``StorePlaces``): no entry is held.
    private static func writeInIdOrder(
        _ base: Base, skipping hidden: Set<String>, into rows: inout EntryRows, _ db: Database
    ) throws {
        let places = try StorePlaces(list: base.list, db)
        let stores = try storesById(base.list, db)
        defer { stores.reset() }
        while try stores.step() {
            let position = Int64(try places.position(ofStore: stores.int64(8)))
            let id = stores.text(0) ?? ""
            guard !hidden.contains(id) else { continue }
            try rows.write(
                id: id, seq: base.sequence(position: position), rank: Base.rank(position: position),
                content: ChangeHash.content(stores))
        }
    }

    /// The most stores a base writes in id order: their places are held
    /// in an array of 4 bytes a key (``StorePlaces``), 1.3 MiB at this
    /// limit when the keys are consecutive. A longer list's rows go in
    /// list order, so that memory stays bounded.
    static let idOrderLimit = 349_525

    /// The base's entries from position `first` on, at most `limit`, as
    /// changes, in sequence order, without the stores an upsert since
    /// hides (a page's middle: ``page(name:since:limit:_:)``).
    static func baseChanges(_ base: Base, feed: Int64, from first: Int64, limit: Int, _ db: Database) throws -> [StoreChange] {
        let statement = try RawStatement.cached(
            """
            SELECT s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes, i.position
            FROM list_items AS i JOIN stores AS s ON s.key = i.store
            WHERE i.list = ? AND i.position >= ?
              AND NOT EXISTS (SELECT 1 FROM feed_entries AS e WHERE e.feed = ? AND e.id = s.id)
            ORDER BY i.position LIMIT ?
            """, in: db)
        defer { statement.reset() }
        statement.bind(base.list, at: 1)
        statement.bind(first, at: 2)
        statement.bind(feed, at: 3)
        statement.bind(Int64(limit), at: 4)
        var changes: [StoreChange] = []
        while try statement.step() {
            let position = statement.int64(8)
            changes.append(
                StoreChange(
                    sequence: base.sequence(position: position), id: statement.text(0) ?? "",
                    rank: Base.rank(position: position), store: record(statement)))
        }
        return changes
    }

    /// The rank and content the base gives each of the stores `ids` of its
    /// list (those it holds), as the stores' rows hold them now: before a
    /// replica updates them in place.
    static func baseEntries(_ base: Base, ids: Set<String>, _ db: Database) throws -> [String: (rank: Int64, content: Int64)] {
        guard !ids.isEmpty else { return [:] }
        var contents: [Int64: (id: String, content: Int64)] = [:]
        let store = try RawStatement.cached(
            """
            SELECT id, name, latitude, longitude, address, category, phone, attributes, key
            FROM stores WHERE list = ? AND id = ?
            """, in: db)
        defer { store.reset() }
        for id in ids {
            store.reset()
            store.bind(base.list, at: 1)
            store.bind(id, at: 2)
            if try store.step() { contents[store.int64(8)] = (id, ChangeHash.content(store)) }
        }
        // A store's place: one pass over the list's items, integers only.
        var entries: [String: (rank: Int64, content: Int64)] = [:]
        let items = try RawStatement.cached("SELECT position, store FROM list_items WHERE list = ?", in: db)
        defer { items.reset() }
        items.bind(base.list, at: 1)
        while entries.count < contents.count, try items.step() {
            guard let found = contents[items.int64(1)] else { continue }
            entries[found.id] = (Base.rank(position: items.int64(0)), found.content)
        }
        return entries
    }
}
