import GRDB

/// The change log's writes and reads, inside the caller's transaction:
/// every write that changes a list calls `record(name:list:_:options:imported:)` in
/// its own transaction, so a change is in the log exactly when the write
/// committed (migration 0011 describes the tables, 0012 a feed's base:
/// a list's first version logged as one row, ``Base``).
package enum ChangeLog {
    /// The gap between two consecutive ranks given afresh: 2^20, so that
    /// about 20 insertions at one place fit before the ranks around it
    /// have to be given again.
    package static let spacing: Int64 = 1 << 20

    /// A feed's row in `change_feeds`.
    package struct Feed: Sendable {
        package var key: Int64
        package var k0: Int64
        package var k1: Int64
        package var head: Int64
        package var floor: Int64
        package var checksum: Int64
        package var live: Int64

        package init(key: Int64, k0: Int64, k1: Int64, head: Int64, floor: Int64, checksum: Int64, live: Int64) {
            self.key = key
            self.k0 = k0
            self.k1 = k1
            self.head = head
            self.floor = floor
            self.checksum = checksum
            self.live = live
        }

        /// Accounts for a store of the new list at `rank` with `content`,
        /// which the feed holds live as `old` (nil: not live): the sequence
        /// number of its upsert, or nil when it is unchanged. Both engines'
        /// logs count through it and ``tombstone(rank:content:)``, so their
        /// sequence numbers, `live` and checksums agree.
        package mutating func upsert(rank: Int64, content: Int64, old: (rank: Int64, content: Int64)?) -> Int64? {
            if let old {
                if old.rank == rank && old.content == content { return nil }
                checksum &-= ChangeHash.item(content: old.content, rank: old.rank)
            } else {
                live += 1
            }
            head += 1
            checksum &+= ChangeHash.item(content: content, rank: rank)
            return head
        }

        /// Accounts for a live store gone from the list: the sequence
        /// number of its tombstone.
        package mutating func tombstone(rank: Int64, content: Int64) -> Int64 {
            head += 1
            checksum &-= ChangeHash.item(content: content, rank: rank)
            live -= 1
            return head
        }
    }

    static func feed(named name: String, _ db: Database) throws -> Feed? {
        let statement = try RawStatement.cached(
            "SELECT key, k0, k1, head, floor, checksum, live FROM change_feeds WHERE name = ?", in: db)
        defer { statement.reset() }
        statement.bind(name, at: 1)
        guard try statement.step() else { return nil }
        return Feed(
            key: statement.int64(0), k0: statement.int64(1), k1: statement.int64(2), head: statement.int64(3),
            floor: statement.int64(4), checksum: statement.int64(5), live: statement.int64(6))
    }

    static func makeFeed(named name: String, _ db: Database) throws -> Feed {
        var random = SystemRandomNumberGenerator()
        let k0 = Int64(bitPattern: random.next()), k1 = Int64(bitPattern: random.next())
        try db.execute(sql: "INSERT INTO change_feeds (name, k0, k1) VALUES (?, ?, ?)", arguments: [name, k0, k1])
        return Feed(key: db.lastInsertedRowID, k0: k0, k1: k1, head: 0, floor: 0, checksum: 0, live: 0)
    }

    /// Records in the log that the list named `name` is now the list whose
    /// key is `list` (nil: no list has that name any more), against what
    /// the feed held: new stores and stores whose content or place changed
    /// are upserts, stores no longer there tombstones; unchanged stores are
    /// not changes. Then purges the feed's tombstones older than the
    /// retention. Runs in the write's transaction.
    ///
    /// `imported`: the stores of `list` as the import that wrote it
    /// gathered them, used when the feed holds no live store.
    static func record(
        name: String, list: Int64?, _ db: Database, options: ChangeLogOptions, imported: ImportedStores? = nil
    ) throws {
        let now = stamp(options)
        guard var feed = try feed(named: name, db) ?? (list == nil ? nil : makeFeed(named: name, db)) else { return }
        // A diff reads the feed's rows: a first version's become rows now.
        try materializeBase(of: feed.key, db)
        if let list, feed.live == 0 {
            try recordFirst(list: list, feed: &feed, at: now, imported: imported, db)
        } else {
            // One row a change: a diff, against no store when the list is gone.
            let writer = try EntryWriter(feed: feed.key, at: now, db)
            try recordDiff(list: list, feed: &feed, writer: writer, db)
        }
        try compact(feed: &feed, before: now - Self.seconds(options.retention), db)
        try db.execute(
            sql: "UPDATE change_feeds SET head = ?, floor = ?, checksum = ?, live = ? WHERE key = ?",
            arguments: [feed.head, feed.floor, feed.checksum, feed.live, feed.key])
    }

    /// The time a write stamps its changes with: Unix seconds.
    static func stamp(_ options: ChangeLogOptions) -> Int64 {
        Int64(options.now().timeIntervalSince1970.rounded(.down))
    }

    package static func seconds(_ duration: Duration) -> Int64 {
        max(0, duration.components.seconds)
    }

    /// The statement reading a list's stores in carousel order, with
    /// their content's columns.
    static func storesInOrder(_ list: Int64, _ db: Database) throws -> RawStatement {
        let statement = try RawStatement.cached(
            """
            SELECT s.id, s.name, s.latitude, s.longitude, s.address, s.category, s.phone, s.attributes
            FROM list_items AS i JOIN stores AS s ON s.key = i.store
            WHERE i.list = ? ORDER BY i.position
            """, in: db)
        statement.bind(list, at: 1)
        return statement
    }

    static func record(_ statement: RawStatement) -> StoreRecord {
        StoreRecord(
            id: statement.text(0) ?? "", name: statement.text(1) ?? "", latitude: statement.double(2),
            longitude: statement.double(3), address: statement.text(4), category: statement.text(5),
            phone: statement.text(6), attributes: statement.text(7))
    }

    /// A feed with no live store: every store is an upsert, ranked afresh
    /// (a first import; tombstones of the same ids become upserts again),
    /// numbered in list order and recorded as the feed's base (``Base``):
    /// one row of `change_feeds`, not a row per store.
    ///
    /// The checksum comes from `imported` when it is whole (the import
    /// hashed the stores as it wrote them); otherwise the stores are read
    /// back in list order and hashed here.
    private static func recordFirst(
        list: Int64, feed: inout Feed, at now: Int64, imported: ImportedStores?, _ db: Database
    ) throws {
        try db.execute(
            sql: """
                DELETE FROM feed_entries
                WHERE feed = ? AND EXISTS (SELECT 1 FROM stores AS s WHERE s.list = ? AND s.id = feed_entries.id)
                """, arguments: [feed.key, list])
        let count = try Int64.fetchOne(db, sql: "SELECT count(*) FROM list_items WHERE list = ?", arguments: [list]) ?? 0
        guard count > 0 else { return }
        var checksum: Int64
        if let gathered = try imported?.checksum(inOrderOf: list, count: count, db) {
            checksum = gathered
        } else {
            checksum = 0
            let statement = try storesInOrder(list, db)
            defer { statement.reset() }
            var position: Int64 = 0
            while try statement.step() {
                // Hashed from SQLite's bytes: no String a column.
                checksum &+= ChangeHash.item(content: ChangeHash.content(statement), rank: Base.rank(position: position))
                position += 1
            }
        }
        try setBase(Base(list: list, start: feed.head, count: count, at: now), of: feed.key, db)
        feed.head += count
        feed.live += count
        feed.checksum &+= checksum
    }

    /// Log rows written as plain inserts, a hundred to a statement (a
    /// base's rows, ``materializeBase(of:_:)``). One upsert a row, `INSERT
    /// … ON CONFLICT DO UPDATE`, was 21 % of the CPU samples of the
    /// 234,908 places' import when a first import wrote its rows so
    /// (`perf record --call-graph dwarf` of `carousel import`).
    struct EntryRows {
        private var rows: BatchInsert<(id: String, seq: Int64, rank: Int64, content: Int64)>
        private(set) var count: Int64 = 0

        init(feed: Int64, at now: Int64, _ db: Database) throws {
            rows = try BatchInsert(db, into: "feed_entries", columns: ["feed", "id", "seq", "rank", "content", "at"]) {
                row, statement, first in
                statement.bind(feed, at: first)
                statement.bind(row.id, at: first + 1)
                statement.bind(row.seq, at: first + 2)
                statement.bind(row.rank, at: first + 3)
                statement.bind(row.content, at: first + 4)
                statement.bind(now, at: first + 5)
            }
        }

        mutating func write(id: String, seq: Int64, rank: Int64, content: Int64) throws {
            count += 1
            try rows.append((id, seq, rank, content))
        }

        /// Writes what is pending.
        mutating func finish() throws {
            try rows.finish()
        }
    }

    /// A feed with live stores: the new list diffed against them by id
    /// and content. The stores that keep their rank are a longest
    /// increasing subsequence of the old ranks in the new order, so a
    /// store inserted, deleted or moved is one change, not one per store
    /// after it; the others are ranked between their kept neighbours.
    ///
    /// The list's stores and the feed's live rows are read side by side
    /// in id order (the stores' `UNIQUE (list, id)` index, the rows'
    /// primary key) and matched as they go, each store placed by its key
    /// (``StorePlaces``); a live row no store matches is a tombstone. This
    /// was a B-tree probe of the log per store and a second pass over the
    /// list for the changed stores' ids: 290 ms of a 234,908-store replace
    /// (`perf record` of `carousel import --replace`, 292 of its 1,522
    /// samples at 1 kHz). Upserts are numbered in list order, then
    /// tombstones in id order, as PostgreSQL's log numbers them. With no
    /// list (`list` nil: it was deleted or renamed away), every live row
    /// is a tombstone.
    private static func recordDiff(list: Int64?, feed: inout Feed, writer: EntryWriter, _ db: Database) throws {
        // Three words a store, not its id.
        let places = try list.map { try StorePlaces(list: $0, db) }
        let count = places?.count ?? 0
        var oldRanks = [Int64?](repeating: nil, count: count)
        var oldContents = [Int64](repeating: 0, count: count)
        var contents = [Int64](repeating: 0, count: count)
        var gone: [(id: String, rank: Int64, content: Int64)] = []
        do {
            let rows = try RawStatement.cached(
                "SELECT id, rank, content FROM feed_entries WHERE feed = ? AND rank IS NOT NULL ORDER BY id", in: db)
            defer { rows.reset() }
            rows.bind(feed.key, at: 1)
            var hasRow = try rows.step()
            if let list, let places {
                let stores = try storesById(list, db)
                defer { stores.reset() }
                while try stores.step() {
                    let place = try places.position(ofStore: stores.int64(8))
                    contents[place] = ChangeHash.content(stores)
                    while hasRow {
                        let order = rows.withUTF8(0) { row in stores.withUTF8(0) { store in compareIds(row, store) } ?? 1 } ?? -1
                        if order > 0 { break }
                        if order == 0 {
                            oldRanks[place] = rows.int64(1)
                            oldContents[place] = rows.int64(2)
                        } else {
                            gone.append((rows.text(0) ?? "", rows.int64(1), rows.int64(2)))
                        }
                        hasRow = try rows.step()
                        if order == 0 { break }
                    }
                }
            }
            while hasRow {
                gone.append((rows.text(0) ?? "", rows.int64(1), rows.int64(2)))
                hasRow = try rows.step()
            }
        }
        let ranks = RankAssignment.ranks(keeping: oldRanks, spacing: spacing)
        let idAt = try RawStatement.cached(
            """
            SELECT s.id FROM list_items AS i JOIN stores AS s ON s.key = i.store WHERE i.list = ? AND i.position = ?
            """, in: db)
        defer { idAt.reset() }
        for place in 0..<count {
            let old = oldRanks[place].map { (rank: $0, content: oldContents[place]) }
            guard let seq = feed.upsert(rank: ranks[place], content: contents[place], old: old), let list else { continue }
            idAt.reset()
            idAt.bind(list, at: 1)
            idAt.bind(Int64(place), at: 2)
            guard try idAt.step(), let id = idAt.text(0) else {
                throw CatalogError.database("list \(list) has no store at \(place)")
            }
            try writer.upsert(id: id, seq: seq, rank: ranks[place], content: contents[place])
        }
        for store in gone {
            try writer.tombstone(id: store.id, seq: feed.tombstone(rank: store.rank, content: store.content))
        }
    }

    /// Records new contents of stores that stay where they are (a
    /// replica's update in place): each an upsert at its own rank, when
    /// its content changed. Called before the stores' rows are updated:
    /// a store the feed's base holds (``Base``) has its old content there,
    /// and keeps the base (the upsert hides the store's base entry).
    static func recordContentChanges(name: String, _ records: [StoreRecord], _ db: Database, options: ChangeLogOptions) throws {
        let now = stamp(options)
        guard var feed = try feed(named: name, db) else { return }
        let writer = try EntryWriter(feed: feed.key, at: now, db)
        let lookup = try RawStatement.cached(
            "SELECT rank, content FROM feed_entries WHERE feed = ? AND id = ? AND rank IS NOT NULL", in: db)
        defer { lookup.reset() }
        var logged: [String: (rank: Int64, content: Int64)] = [:]
        for record in records {
            lookup.reset()
            lookup.bind(feed.key, at: 1)
            lookup.bind(record.id, at: 2)
            if try lookup.step() { logged[record.id] = (lookup.int64(0), lookup.int64(1)) }
        }
        if let base = try base(of: feed.key, db) {
            let unlogged = Set(records.map(\.id)).subtracting(logged.keys)
            logged.merge(try baseEntries(base, ids: unlogged, db)) { row, _ in row }
        }
        for record in records {
            guard let (rank, old) = logged[record.id] else {
                throw CatalogError.database("the change log of list '\(name)' does not hold store '\(record.id)'")
            }
            let content = ChangeHash.content(record)
            guard content != old else { continue }
            feed.head += 1
            try writer.upsert(id: record.id, seq: feed.head, rank: rank, content: content)
            feed.checksum &-= ChangeHash.item(content: old, rank: rank)
            feed.checksum &+= ChangeHash.item(content: content, rank: rank)
            logged[record.id] = (rank, content)
        }
        try db.execute(
            sql: "UPDATE change_feeds SET head = ?, checksum = ? WHERE key = ?", arguments: [feed.head, feed.checksum, feed.key])
    }

    /// Purges the feed's tombstones stamped before `cutoff` (Unix
    /// seconds); the feed's floor rises to the newest purged, so a cursor
    /// below it is told to resync instead of missing the delete.
    /// Compaction otherwise has nothing to do: each store has one row, its
    /// last change (CouchDB's by-sequence index).
    @discardableResult
    static func compact(feed: inout Feed, before cutoff: Int64, _ db: Database) throws -> Int {
        let newest = try Int64.fetchOne(
            db, sql: "SELECT max(seq) FROM feed_entries WHERE feed = ? AND rank IS NULL AND at < ?",
            arguments: [feed.key, cutoff])
        guard let newest else { return 0 }
        try db.execute(
            sql: "DELETE FROM feed_entries WHERE feed = ? AND rank IS NULL AND at < ?", arguments: [feed.key, cutoff])
        feed.floor = max(feed.floor, newest)
        return db.changesCount
    }

    /// Writes `feed_entries` rows through two cached statements.
    struct EntryWriter {
        let upsert: RawStatement
        let tomb: RawStatement
        let feed: Int64
        let at: Int64

        init(feed: Int64, at: Int64, _ db: Database) throws {
            self.feed = feed
            self.at = at
            upsert = try RawStatement.cached(
                """
                INSERT INTO feed_entries (feed, id, seq, rank, content, at) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (feed, id) DO UPDATE SET seq = excluded.seq, rank = excluded.rank,
                    content = excluded.content, at = excluded.at
                """, in: db)
            tomb = try RawStatement.cached(
                "UPDATE feed_entries SET seq = ?, rank = NULL, content = 0, at = ? WHERE feed = ? AND id = ?", in: db)
        }

        func upsert(id: String, seq: Int64, rank: Int64, content: Int64) throws {
            upsert.reset()
            upsert.bind(feed, at: 1)
            upsert.bind(id, at: 2)
            upsert.bind(seq, at: 3)
            upsert.bind(rank, at: 4)
            upsert.bind(content, at: 5)
            upsert.bind(at, at: 6)
            _ = try upsert.step()
            upsert.reset()
        }

        func tombstone(id: String, seq: Int64) throws {
            tomb.reset()
            tomb.bind(seq, at: 1)
            tomb.bind(at, at: 2)
            tomb.bind(feed, at: 3)
            tomb.bind(id, at: 4)
            _ = try tomb.step()
            tomb.reset()
        }
    }
}
