import GRDB

extension ChangeLog {
    /// A first import's log rows, gathered while the import writes its
    /// stores: each store's id and content hash, hashed from the bytes the
    /// import binds, so that ``ChangeLog/record(name:list:_:options:imported:)``
    /// need not read the stores back and hash them again.
    ///
    /// Why: reading the 234,908 places back in list order and hashing them
    /// was about 95 ms of the writing thread's 580 (`perf record
    /// --call-graph dwarf` of `carousel import`), after the rows were all
    /// written. Gathered as they are written, the same work falls while the
    /// writing thread waits for the reading one, which is the slower of the
    /// two while the file streams (340 ms against 205 ms of writing).
    ///
    /// The import's stores get consecutive keys in the order they are
    /// written, so the `n`th entry is the store whose key is the first
    /// one's plus `n`. In file order its rank is known as it is written;
    /// in a name or distance order it comes from the list's items once
    /// they are numbered (``ranked(inOrderOf:_:)``).
    ///
    /// At most ``ChangeLog/sortedFirstLimit`` entries are held, in chunks
    /// so that growing never copies them all. A longer list is numbered in
    /// list order (``ChangeLog/record(name:list:_:options:imported:)``), so
    /// past the limit the entries held are written and every next store's
    /// row goes as it is gathered: in file order, where its rank is known
    /// then, into a feed that holds no row its ids could meet. Otherwise
    /// (a name or distance order, a feed with tombstones), and when the
    /// import rewrites stores after writing them (an attribute column whose
    /// type was guessed wrong), the gathering is abandoned and the log
    /// reads the stores back as it does for any other write.
    struct ImportedStores {
        private static let chunkSize = 4096

        private enum Phase {
            case gathering
            /// Past the limit: the rows are being written (``rows``).
            case writing
            case abandoned
        }

        private var phase = Phase.gathering
        /// The rows being written past the limit, and their feed's key: a
        /// property of its own, not the phase's payload, so that each row
        /// is appended in place (bound out of an enum case, the writer's
        /// pending rows have a second reference, and an append must copy
        /// them before it can grow them).
        private var rows: FirstRows?
        private var feedKey: Int64 = 0
        private var chunks: [[PendingEntry]] = []
        private(set) var count = 0
        private var firstKey: Int64?
        private let limit: Int
        private let name: String
        private let now: Int64
        /// Whether the list is in file order: each store's rank is known
        /// as it is written.
        private let inFileOrder: Bool
        /// Whether the rows may be written past the limit (file order, and
        /// the feed holds no row at all).
        private let writesPastLimit: Bool

        /// The gathering for an import into list `name` in `order`; nil when
        /// the feed holds live stores, and the import is diffed instead.
        static func forImport(
            name: String, order: ImportOrder, options: ChangeLogOptions, _ db: Database, limit: Int = ChangeLog.sortedFirstLimit
        ) throws -> ImportedStores? {
            let feed = try ChangeLog.feed(named: name, db)
            guard (feed?.live ?? 0) == 0 else { return nil }
            let empty = try feed.map { feed in
                try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feed_entries WHERE feed = ?)", arguments: [feed.key])!
            }
            return ImportedStores(
                name: name, now: ChangeLog.stamp(options), inFileOrder: order == .file, feedIsEmpty: empty ?? true,
                limit: limit)
        }

        init(name: String, now: Int64, inFileOrder: Bool, feedIsEmpty: Bool, limit: Int = ChangeLog.sortedFirstLimit) {
            self.name = name
            self.now = now
            self.inFileOrder = inFileOrder
            writesPastLimit = inFileOrder && feedIsEmpty
            self.limit = limit
        }

        /// Whether the entries are whole: every store the import wrote, and
        /// as it wrote it (held, or written past the limit).
        var isWhole: Bool {
            if case .abandoned = phase { return false }
            return true
        }

        /// Gathers the store of `batch` that the import has just written
        /// with `key`; `text` is the batch's text buffer.
        mutating func append(
            _ store: RowBatch.StoreRow, of batch: RowBatch, text: UnsafeBufferPointer<UInt8>, key: Int64, _ db: Database
        ) throws {
            if case .abandoned = phase { return }
            let first = firstKey ?? key
            guard key == first + Int64(count) else { return try abandon(db) }
            firstKey = first
            let content = ChangeHash.content(latitude: store.latitude, longitude: store.longitude) { index in
                // Empty is NULL, as the import binds it.
                let range = batch.range(of: RowBatch.Column(rawValue: index)!, store)
                return range.isEmpty ? nil : UnsafeBufferPointer(rebasing: text[range])
            }
            let id = String(decoding: text[batch.range(of: .id, store)], as: UTF8.self)
            count += 1
            // In file order, the list's `count`th store.
            let entry = PendingEntry(id: id, rank: Int64(count) * ChangeLog.spacing, content: content)
            switch phase {
            case .gathering where count <= limit:
                if chunks.last.map({ $0.count == Self.chunkSize }) ?? true {
                    chunks.append([])
                    chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
                }
                chunks[chunks.count - 1].append(entry)
            case .gathering:
                guard writesPastLimit else { return try abandon(db) }
                let feed = try ChangeLog.feed(named: name, db) ?? ChangeLog.makeFeed(named: name, db)
                var rows = try FirstRows(feed: feed, at: now, db)
                for index in chunks.indices {
                    for held in chunks[index] { try rows.write(held) }
                    chunks[index] = []
                }
                chunks = []
                try rows.write(entry)
                self.rows = rows
                feedKey = feed.key
                phase = .writing
            case .writing:
                try rows!.write(entry)
            case .abandoned:
                break
            }
        }

        /// Gives the gathering up and frees what it held; past the limit,
        /// deletes the rows it wrote (the feed held none before them).
        mutating func abandon(_ db: Database) throws {
            if case .writing = phase {
                try db.execute(sql: "DELETE FROM feed_entries WHERE feed = ?", arguments: [feedKey])
            }
            phase = .abandoned
            rows = nil
            chunks = []
            count = 0
        }

        /// When the rows were written past the limit: writes what is
        /// pending, checks that they are the list's, one for one, counts
        /// them in `feed` and returns true. Otherwise false.
        func finishWriting(list: Int64, into feed: inout Feed, _ db: Database) throws -> Bool {
            guard case .writing = phase, var rows else { return false }
            let items = try Self.itemCount(list, db)
            guard items == rows.count else {
                throw CatalogError.database(
                    "the change log of list '\(name)' has \(rows.count) rows for its \(items) stores")
            }
            try rows.finish(into: &feed)
            return true
        }

        private static func itemCount(_ list: Int64, _ db: Database) throws -> Int64 {
            try Int64.fetchOne(db, sql: "SELECT count(*) FROM list_items WHERE list = ?", arguments: [list]) ?? 0
        }

        /// The entries held, each ranked by its store's place in list
        /// `list` (spacing, 2 × spacing, …: the ranks a first import
        /// gives); nil when the gathering was abandoned, its rows were
        /// written, or it does not match the list's items one for one, and
        /// the log must read the stores back.
        consuming func ranked(inOrderOf list: Int64, _ db: Database) throws -> [PendingEntry]? {
            guard case .gathering = phase else { return nil }
            let firstKey = self.firstKey ?? 0
            var entries: [PendingEntry] = []
            entries.reserveCapacity(count)
            // Chunk by chunk, each freed once copied: the entries are held
            // once, plus a chunk.
            for index in chunks.indices {
                entries.append(contentsOf: chunks[index])
                chunks[index] = []
            }
            // In file order the items were numbered as the stores were
            // written, so the ranks given then hold (reading the items'
            // order again was 15 ms of the 234,908 places' import).
            if inFileOrder { return try Self.itemCount(list, db) == Int64(entries.count) ? entries : nil }
            var placed = [Bool](repeating: false, count: entries.count)
            let statement = try RawStatement.cached(
                "SELECT store FROM list_items WHERE list = ? ORDER BY position", in: db)
            defer { statement.reset() }
            statement.bind(list, at: 1)
            var ranked = 0
            while try statement.step() {
                let index = statement.int64(0) &- firstKey
                guard index >= 0, index < Int64(entries.count), !placed[Int(index)] else { return nil }
                placed[Int(index)] = true
                ranked += 1
                entries[Int(index)].rank = Int64(ranked) * ChangeLog.spacing
            }
            return ranked == entries.count ? entries : nil
        }
    }
}
