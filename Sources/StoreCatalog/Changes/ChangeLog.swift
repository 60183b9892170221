import GRDB

/// The change log's writes and reads, inside the caller's transaction:
/// every write that changes a list calls `record(name:list:_:options:imported:)` in
/// its own transaction, so a change is in the log exactly when the write
/// committed (migration 0011 describes the tables).
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
        if let list, feed.live == 0 {
            try recordFirst(list: list, feed: &feed, at: now, imported: imported, db)
        } else {
            // One row a change, each found by id: a diff, or a list gone.
            let writer = try EntryWriter(feed: feed.key, at: now, db)
            if let list {
                try recordDiff(list: list, feed: &feed, writer: writer, db)
            } else {
                try tombstone(feed: &feed, keeping: nil, writer: writer, db)
            }
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
    private static func storesInOrder(_ list: Int64, _ db: Database) throws -> RawStatement {
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
    /// (a first import; tombstones of the same ids become upserts again).
    ///
    /// The rows are written in id order, their sequence numbers given in
    /// that order: both of the table's B-trees then grow at their right
    /// edge, whatever order the file had its ids in (in list order, a list
    /// of shuffled ids costs `sqlite3` alone 632 ms for the 234,908
    /// places' rows, against 130–150 in id order). A list of more than
    /// ``sortedFirstLimit`` stores is written in list order instead, so
    /// that memory stays bounded; PostgreSQL's log numbers the same way,
    /// so both engines give the same pages.
    ///
    /// The feed's rows of the list's ids (tombstones: no store is live)
    /// go first, so every row is a plain insert, a hundred to a statement
    /// (``BatchInsert``). One upsert a row, `INSERT … ON CONFLICT DO
    /// UPDATE`, was 21 % of the CPU samples of the 234,908 places' import,
    /// more than writing the stores themselves (`perf record --call-graph
    /// dwarf` of `carousel import`; BENCHMARKS.md, delta sync).
    ///
    /// The entries come from `imported` when it is whole (the import
    /// hashed the stores as it wrote them); otherwise the stores are read
    /// back in list order and hashed here.
    private static func recordFirst(
        list: Int64, feed: inout Feed, at now: Int64, imported: ImportedStores?, _ db: Database
    ) throws {
        // Written by the import as it went (a list past the sorting limit).
        if let imported, try imported.finishWriting(list: list, into: &feed, db) { return }
        try db.execute(
            sql: """
                DELETE FROM feed_entries
                WHERE feed = ? AND EXISTS (SELECT 1 FROM stores AS s WHERE s.list = ? AND s.id = feed_entries.id)
                """, arguments: [feed.key, list])
        var rows = try FirstRows(feed: feed, at: now, db)
        var pending: [PendingEntry]
        if let gathered = try imported?.ranked(inOrderOf: list, db) {
            pending = gathered
        } else if try writeInIdOrder(list: list, into: &rows, db) {
            try rows.finish(into: &feed)
            return
        } else {
            let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM list_items WHERE list = ?", arguments: [list]) ?? 0
            let sorts = count <= sortedFirstLimit
            // Sized once: grown by doubling, the array's last copy held both
            // buffers (19 MB for the 234,908 places' 11 MB of entries).
            pending = []
            if sorts { pending.reserveCapacity(count) }
            let statement = try storesInOrder(list, db)
            defer { statement.reset() }
            var rank: Int64 = 0
            while try statement.step() {
                // Hashed from SQLite's bytes; only the id becomes a String.
                rank += spacing
                let entry = PendingEntry(id: statement.text(0) ?? "", rank: rank, content: ChangeHash.content(statement))
                if sorts { pending.append(entry) } else { try rows.write(entry) }
            }
        }
        // SQLite's BINARY collation: the bytes of the UTF-8, compared by
        // their first 16 bytes as two integers first (80 ms of sorting the
        // 234,908 places' ids through `UTF8View` alone became ~15).
        //
        // Sorted as indices: the stdlib's sort, a merge sort, takes a
        // scratch buffer of half its elements, 5.6 MB of these 48-byte
        // entries for the 234,908 places against 0.5 MB of indices (at
        // most `sortedFirstLimit` entries: they fit in 32 bits).
        var order = [UInt32](0..<UInt32(pending.count))
        pending.withUnsafeBufferPointer { entries in
            order.sort { PendingEntry.precedes(entries[Int($0)], entries[Int($1)]) }
        }
        for index in order { try rows.write(pending[Int(index)]) }
        try rows.finish(into: &feed)
    }

    /// The rows of list `list`'s stores read back in id order, each ranked
    /// by its place in the list, written as they are read: no entry is
    /// held. False, having written nothing, when the list is longer than
    /// ``sortedFirstLimit`` (its rows go in list order) or its store keys
    /// spread over more than four times its length (then the entries are
    /// held and sorted).
    ///
    /// Why: holding the entries to sort them was 48 bytes a store, 11 MB
    /// for the 234,908 places, which set the peak of `carousel sync`'s
    /// client as it wrote the list it had downloaded (anonymous memory
    /// 16 → 27 MiB in its last 200 ms). Here the stores come in id order
    /// from their `UNIQUE (list, id)` index, in SQLite's BINARY collation
    /// as the sort orders them, and a store's place is found by its key
    /// in an array of 4 bytes a key.
    private static func writeInIdOrder(list: Int64, into rows: inout FirstRows, _ db: Database) throws -> Bool {
        guard
            let span = try Row.fetchOne(
                db, sql: "SELECT min(store), max(store), count(*) FROM list_items WHERE list = ?", arguments: [list]),
            let lowest = span[0] as Int64?, let highest = span[1] as Int64?
        else { return true }  // no items: no rows
        let count: Int64 = span[2]
        let width = highest - lowest + 1
        // Past the sorting limit the rows go in list order (`recordFirst`).
        guard count <= sortedFirstLimit, width <= 4 * count + 1_024 else { return false }
        var positions = [UInt32](repeating: .max, count: Int(width))
        let items = try RawStatement.cached("SELECT position, store FROM list_items WHERE list = ?", in: db)
        defer { items.reset() }
        items.bind(list, at: 1)
        while try items.step() {
            let position = items.int64(0)
            guard (0..<count).contains(position) else { throw CatalogError.database("list \(list) has an item at \(position)") }
            positions[Int(items.int64(1) - lowest)] = UInt32(position)
        }
        let stores = try RawStatement.cached(
            """
            SELECT id, name, latitude, longitude, address, category, phone, attributes, key
            FROM stores WHERE list = ? ORDER BY id
            """, in: db)
        defer { stores.reset() }
        stores.bind(list, at: 1)
        var written: Int64 = 0
        while try stores.step() {
            let offset = stores.int64(8) - lowest
            guard (0..<width).contains(offset), positions[Int(offset)] != .max else {
                throw CatalogError.database("list \(list) holds a store that is not among its items")
            }
            let rank = (Int64(positions[Int(offset)]) + 1) * spacing
            try rows.write(PendingEntry(id: stores.text(0) ?? "", rank: rank, content: ChangeHash.content(stores)))
            written += 1
        }
        guard written == count else { throw CatalogError.database("list \(list) has \(count) items for \(written) stores") }
        return true
    }

    /// A first import's log rows: plain inserts, a hundred to a statement,
    /// numbered on from the feed's head in the order they are written, and
    /// what they add to the feed's counters.
    struct FirstRows {
        private var rows: BatchInsert<(entry: PendingEntry, seq: Int64)>
        private var head: Int64
        private var checksum: Int64 = 0
        private(set) var count: Int64 = 0

        init(feed: Feed, at now: Int64, _ db: Database) throws {
            let key = feed.key
            head = feed.head
            rows = try BatchInsert(db, into: "feed_entries", columns: ["feed", "id", "seq", "rank", "content", "at"]) {
                row, statement, first in
                statement.bind(key, at: first)
                statement.bind(row.entry.id, at: first + 1)
                statement.bind(row.seq, at: first + 2)
                statement.bind(row.entry.rank, at: first + 3)
                statement.bind(row.entry.content, at: first + 4)
                statement.bind(now, at: first + 5)
            }
        }

        mutating func write(_ entry: PendingEntry) throws {
            head += 1
            checksum &+= ChangeHash.item(content: entry.content, rank: entry.rank)
            count += 1
            try rows.append((entry, head))
        }

        /// Writes what is pending and counts the rows in `feed`.
        mutating func finish(into feed: inout Feed) throws {
            try rows.finish()
            feed.head = head
            feed.checksum &+= checksum
            feed.live += count
        }
    }

    /// A first import's log row waiting to be written in id order, with
    /// its id's first 16 UTF-8 bytes as two big-endian integers (zero
    /// padded): where those differ they order the ids as the bytes do.
    struct PendingEntry {
        var id: String
        var rank: Int64
        var content: Int64
        var prefix0: UInt64 = 0
        var prefix1: UInt64 = 0

        init(id: String, rank: Int64, content: Int64) {
            self.id = id
            self.rank = rank
            self.content = content
            var index = 0
            for byte in id.utf8 {
                if index < 8 {
                    prefix0 |= UInt64(byte) << (56 - 8 * UInt64(index))
                } else if index < 16 {
                    prefix1 |= UInt64(byte) << (56 - 8 * UInt64(index - 8))
                } else {
                    break
                }
                index += 1
            }
        }

        static func precedes(_ a: PendingEntry, _ b: PendingEntry) -> Bool {
            if a.prefix0 != b.prefix0 { return a.prefix0 < b.prefix0 }
            if a.prefix1 != b.prefix1 { return a.prefix1 < b.prefix1 }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
    }

    /// The most stores a first import numbers in id order, sorting their
    /// ids in memory (48 bytes each, `PendingEntry`): 16 MiB of them. The
    /// 10⁷-store import is bounded by 64 MiB and peaks at 43 MiB without
    /// its log (BENCHMARKS.md, scale); a limit of 10⁶ took it to 92 MiB.
    /// PostgreSQL's log uses the same limit.
    package static let sortedFirstLimit = (16 << 20) / MemoryLayout<PendingEntry>.stride

    /// A feed with live stores: the new list diffed against them by id
    /// and content. The stores that keep their rank are a longest
    /// increasing subsequence of the old ranks in the new order, so a
    /// store inserted, deleted or moved is one change, not one per store
    /// after it; the others are ranked between their kept neighbours.
    private static func recordDiff(list: Int64, feed: inout Feed, writer: EntryWriter, _ db: Database) throws {
        // Pass 1: the new order with each store's content hash and what
        // the feed holds of it. Three words a store, not its id.
        let liveBefore = feed.live
        var oldRanks: [Int64?] = []
        var oldContents: [Int64] = []
        var contents: [Int64] = []
        do {
            let statement = try storesInOrder(list, db)
            defer { statement.reset() }
            let lookup = try RawStatement.cached(
                "SELECT rank, content FROM feed_entries WHERE feed = ? AND id = ? AND rank IS NOT NULL", in: db)
            defer { lookup.reset() }
            while try statement.step() {
                contents.append(ChangeHash.content(statement))
                lookup.reset()
                lookup.bind(feed.key, at: 1)
                lookup.bind(statement.text(0) ?? "", at: 2)
                if try lookup.step() {
                    oldRanks.append(lookup.int64(0))
                    oldContents.append(lookup.int64(1))
                } else {
                    oldRanks.append(nil)
                    oldContents.append(0)
                }
            }
        }
        let ranks = RankAssignment.ranks(keeping: oldRanks, spacing: spacing)
        // Pass 2: the ids again, in the same order, for the changed stores.
        var matched: Int64 = 0
        do {
            let statement = try storesInOrder(list, db)
            defer { statement.reset() }
            var index = 0
            while try statement.step() {
                defer { index += 1 }
                let old = oldRanks[index].map { (rank: $0, content: oldContents[index]) }
                if old != nil { matched += 1 }
                guard let seq = feed.upsert(rank: ranks[index], content: contents[index], old: old) else { continue }
                try writer.upsert(id: statement.text(0) ?? "", seq: seq, rank: ranks[index], content: contents[index])
            }
        }
        if matched < liveBefore {
            // Some live stores of the feed are not in the list: tombstones.
            try tombstone(feed: &feed, keeping: list, writer: writer, db)
        }
    }

    /// Records new contents of stores that stay where they are (a
    /// replica's update in place): each an upsert at its own rank, when
    /// its content changed.
    static func recordContentChanges(name: String, _ records: [StoreRecord], _ db: Database, options: ChangeLogOptions) throws {
        let now = stamp(options)
        guard var feed = try feed(named: name, db) else { return }
        let writer = try EntryWriter(feed: feed.key, at: now, db)
        for record in records {
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT rank, content FROM feed_entries WHERE feed = ? AND id = ? AND rank IS NOT NULL",
                    arguments: [feed.key, record.id])
            else { throw CatalogError.database("the change log of list '\(name)' does not hold store '\(record.id)'") }
            let rank: Int64 = row[0], old: Int64 = row[1]
            let content = ChangeHash.content(record)
            guard content != old else { continue }
            feed.head += 1
            try writer.upsert(id: record.id, seq: feed.head, rank: rank, content: content)
            feed.checksum &-= ChangeHash.item(content: old, rank: rank)
            feed.checksum &+= ChangeHash.item(content: content, rank: rank)
        }
        try db.execute(
            sql: "UPDATE change_feeds SET head = ?, checksum = ? WHERE key = ?", arguments: [feed.head, feed.checksum, feed.key])
    }

    /// Tombstones for the feed's live stores that list `keeping` does not
    /// hold (nil: all of them), in id order.
    private static func tombstone(feed: inout Feed, keeping list: Int64?, writer: EntryWriter, _ db: Database) throws {
        var gone: [(id: String, rank: Int64, content: Int64)] = []
        let sql =
            list == nil
            ? "SELECT id, rank, content FROM feed_entries WHERE feed = ? AND rank IS NOT NULL"
            : """
            SELECT e.id, e.rank, e.content FROM feed_entries AS e
            WHERE e.feed = ? AND e.rank IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM stores AS s WHERE s.list = ? AND s.id = e.id)
            """
        let statement = try RawStatement.cached(sql, in: db)
        statement.bind(feed.key, at: 1)
        if let list { statement.bind(list, at: 2) }
        while try statement.step() {
            gone.append((statement.text(0) ?? "", statement.int64(1), statement.int64(2)))
        }
        statement.reset()
        for store in gone {
            try writer.tombstone(id: store.id, seq: feed.tombstone(rank: store.rank, content: store.content))
        }
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
