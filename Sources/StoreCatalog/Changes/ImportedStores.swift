import GRDB

extension ChangeLog {
    /// What a first import's log needs of its stores, gathered while the
    /// import writes them: the checksum of the list, each store hashed
    /// from the bytes the import binds, so that
    /// ``ChangeLog/record(name:list:_:options:imported:)`` need not read
    /// the stores back and hash them again.
    ///
    /// Why: reading the 234,908 places back in list order and hashing them
    /// was about 95 ms of the writing thread's 580 (`perf record
    /// --call-graph dwarf` of `carousel import`), after the rows were all
    /// written. Gathered as they are written, the same work falls while the
    /// writing thread waits for the reading one, which is the slower of the
    /// two while the file streams (340 ms against 205 ms of writing).
    ///
    /// The import's stores get consecutive keys in the order they are
    /// written, so the `n`th hash is the store whose key is the first
    /// one's plus `n`. In file order its rank is known as it is written,
    /// and only the sum is kept; in a name or distance order each hash is
    /// held (8 bytes, at most ``limit`` of them) until the list's items
    /// are numbered (``checksum(inOrderOf:count:_:)``). When the import
    /// rewrites stores after writing them (an attribute column whose type
    /// was guessed wrong), the gathering is abandoned and the log reads
    /// the stores back as it does for any other write.
    struct ImportedStores {
        private static let chunkSize = 4096

        /// The most hashes held for an order other than the file's: 16 MiB.
        static let limit = (16 << 20) / MemoryLayout<Int64>.stride

        private var abandoned = false
        /// File order: the sum of the item hashes so far.
        private var checksum: Int64 = 0
        /// Another order: the content hashes, by key, in chunks so that
        /// growing never copies them all.
        private var chunks: [[Int64]] = []
        private(set) var count = 0
        private var firstKey: Int64?
        private let limit: Int
        /// Whether the list is in file order: each store's rank is known
        /// as it is written.
        private let inFileOrder: Bool

        /// The gathering for an import into list `name` in `order`; nil when
        /// the feed holds live stores, and the import is diffed instead.
        static func forImport(name: String, order: ImportOrder, _ db: Database) throws -> ImportedStores? {
            guard (try ChangeLog.feed(named: name, db)?.live ?? 0) == 0 else { return nil }
            return ImportedStores(inFileOrder: order == .file)
        }

        init(inFileOrder: Bool, limit: Int = Self.limit) {
            self.inFileOrder = inFileOrder
            self.limit = limit
        }

        /// Whether the gathering is whole: every store the import wrote, as
        /// it wrote it.
        var isWhole: Bool { !abandoned }

        /// Gathers the store of `batch` that the import has just written
        /// with `key`; `text` is the batch's text buffer.
        mutating func append(_ store: RowBatch.StoreRow, of batch: RowBatch, text: UnsafeBufferPointer<UInt8>, key: Int64) {
            guard !abandoned else { return }
            let first = firstKey ?? key
            guard key == first + Int64(count), inFileOrder || count < limit else { return abandon() }
            firstKey = first
            let content = ChangeHash.content(latitude: store.latitude, longitude: store.longitude) { index in
                // Empty is NULL, as the import binds it.
                let range = batch.range(of: RowBatch.Column(rawValue: index)!, store)
                return range.isEmpty ? nil : UnsafeBufferPointer(rebasing: text[range])
            }
            count += 1
            if inFileOrder {
                // The list's `count`th store.
                checksum &+= ChangeHash.item(content: content, rank: Base.rank(position: Int64(count - 1)))
                return
            }
            if chunks.last.map({ $0.count == Self.chunkSize }) ?? true {
                chunks.append([])
                chunks[chunks.count - 1].reserveCapacity(Self.chunkSize)
            }
            chunks[chunks.count - 1].append(content)
        }

        /// Gives the gathering up and frees what it held.
        mutating func abandon() {
            abandoned = true
            chunks = []
            count = 0
            checksum = 0
        }

        /// The checksum of list `list`, whose `count` items are the stores
        /// gathered, each ranked by its place in the list; nil when the
        /// gathering was abandoned or does not match the list's items one
        /// for one, and the log must read the stores back.
        consuming func checksum(inOrderOf list: Int64, count items: Int64, _ db: Database) throws -> Int64? {
            guard !abandoned, Int64(count) == items else { return nil }
            // In file order the items were numbered as the stores were
            // written, so the ranks given then hold (reading the items'
            // order again was 15 ms of the 234,908 places' import).
            if inFileOrder { return checksum }
            let firstKey = self.firstKey ?? 0
            var placed = [Bool](repeating: false, count: count)
            let statement = try RawStatement.cached("SELECT position, store FROM list_items WHERE list = ?", in: db)
            defer { statement.reset() }
            statement.bind(list, at: 1)
            var sum: Int64 = 0
            while try statement.step() {
                let index = statement.int64(1) &- firstKey
                guard index >= 0, index < Int64(count), !placed[Int(index)] else { return nil }
                placed[Int(index)] = true
                let content = chunks[Int(index) / Self.chunkSize][Int(index) % Self.chunkSize]
                sum &+= ChangeHash.item(content: content, rank: Base.rank(position: statement.int64(0)))
            }
            return sum
        }
    }
}
