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
    /// one's plus `n`; its rank comes from the list's items once they are
    /// numbered (``ranked(inOrderOf:_:)``), whatever the list's order. At
    /// most ``ChangeLog/sortedFirstLimit`` entries are held, in chunks so
    /// that growing never copies them all: past it, or when the import
    /// rewrites stores after writing them (an attribute column whose type
    /// was guessed wrong), the gathering is abandoned and the log reads the
    /// stores back as it does for any other write.
    struct ImportedStores {
        private static let chunkSize = 4096

        private var chunks: [[PendingEntry]] = []
        private(set) var count = 0
        private var firstKey: Int64?
        private let limit: Int
        /// Whether the entries are whole: every store the import wrote, and
        /// as it wrote it.
        private(set) var isWhole = true

        init(limit: Int = ChangeLog.sortedFirstLimit) {
            self.limit = limit
        }

        /// Gathers the store of `batch` that the import has just written
        /// with `key`; `text` is the batch's text buffer.
        mutating func append(_ store: RowBatch.StoreRow, of batch: RowBatch, text: UnsafeBufferPointer<UInt8>, key: Int64) {
            guard isWhole else { return }
            let first = firstKey ?? key
            guard count < limit, key == first + Int64(count) else { return abandon() }
            firstKey = first
            let content = ChangeHash.content(latitude: store.latitude, longitude: store.longitude) { index in
                // Empty is NULL, as the import binds it.
                let range = batch.range(of: RowBatch.Column(rawValue: index)!, store)
                return range.isEmpty ? nil : UnsafeBufferPointer(rebasing: text[range])
            }
            let id = String(decoding: text[batch.range(of: .id, store)], as: UTF8.self)
            if count % Self.chunkSize == 0 {
                chunks.append([])
                chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
            }
            // The rank is given once the list is numbered.
            chunks[chunks.count - 1].append(PendingEntry(id: id, rank: 0, content: content))
            count += 1
        }

        /// Gives the gathering up and frees what it held.
        mutating func abandon() {
            isWhole = false
            chunks = []
            count = 0
        }

        /// The entries, each ranked by its store's place in list `list`
        /// (spacing, 2 × spacing, …: the ranks a first import gives); nil
        /// when the gathering was abandoned or does not match the list's
        /// items one for one, and the log must read the stores back.
        consuming func ranked(inOrderOf list: Int64, _ db: Database) throws -> [PendingEntry]? {
            guard isWhole else { return nil }
            let firstKey = self.firstKey ?? 0
            var entries: [PendingEntry] = []
            entries.reserveCapacity(count)
            // Chunk by chunk, each freed once copied: the entries are held
            // once, plus a chunk.
            for index in chunks.indices {
                entries.append(contentsOf: chunks[index])
                chunks[index] = []
            }
            let statement = try RawStatement.cached(
                "SELECT store FROM list_items WHERE list = ? ORDER BY position", in: db)
            defer { statement.reset() }
            statement.bind(list, at: 1)
            var ranked = 0
            var rank: Int64 = 0
            while try statement.step() {
                let index = statement.int64(0) &- firstKey
                guard index >= 0, index < Int64(entries.count), entries[Int(index)].rank == 0 else { return nil }
                rank += ChangeLog.spacing
                entries[Int(index)].rank = rank
                ranked += 1
            }
            return ranked == entries.count ? entries : nil
        }
    }
}
