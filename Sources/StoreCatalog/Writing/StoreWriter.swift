import GRDB

/// Inserts or updates the stores of a batch of rows, many per statement, and
/// tells a store repeated in the file from one already in the catalog.
///
/// The database's unique index on `id` finds both: an insert that does
/// nothing met an existing id. If its key was handed out by this import
/// (keys grow: SQLite gives max + 1), the id is repeated in the file;
/// otherwise the store predates the import and is updated — once.
///
/// Rows go in `rowsPerStatement` at a time, one `INSERT … VALUES (…), (…)`
/// as in ``BatchInsert``, so that SQLite's work per statement (starting the
/// program, opening the cursors, halting) is paid once per hundred rows.
/// When every row of a statement was inserted, their keys are the next ones
/// in order; when some was not, each row's id is looked up to tell which,
/// in file order.
struct StoreWriter {
    enum Outcome {
        case written(key: Int64)
        case duplicate(firstLine: Int)
    }

    static let rowsPerStatement = 100

    private let db: Database
    /// `INSERT … ON CONFLICT DO NOTHING` of `n` rows, by `n`.
    private var inserts: [Int: RawStatement] = [:]
    private let find: RawStatement
    private let update: RawStatement
    /// The key the next new store gets.
    private var nextKey: Int64
    private let firstNewKey: Int64
    /// The line of each store this import created, by `key - firstNewKey`.
    private var newStoreLines = LineRuns()
    /// The line of each existing store this import updated, kept in SQLite
    /// (created at the first update): an import that updates every store of
    /// a large catalog would otherwise hold one dictionary entry per store,
    /// where a temporary table spills past SQLite's bounded page cache.
    private var updatedStores: UpdatedStores?
    /// The lists holding a store whose coordinates this import changed:
    /// their tiles must be written again (``SpatialTiles/rebuild(list:_:)``).
    /// As many as the catalog has lists, at most.
    private(set) var listsOfMovedStores: Set<Int64> = []
    /// The outcome of each store of the batch being written (one buffer for
    /// all batches).
    private var outcomes: [Outcome] = []
    /// The stores of one statement.
    private var chunk: [RowBatch.StoreRow] = []

    /// The parameters of one row: the text columns in ``RowBatch/Column``
    /// order, then the coordinates (and the update's key).
    private static let columns = ["id", "name", "address", "category", "phone", "attributes", "latitude", "longitude"]
    private static let keyParameter = Int32(columns.count + 1)

    init(_ db: Database) throws {
        self.db = db
        find = RawStatement(try db.makeStatement(sql: "SELECT key, latitude, longitude FROM stores WHERE id = ?"), in: db)
        update = RawStatement(try db.makeStatement(sql: """
            UPDATE stores SET \(Self.columns.map { "\($0) = ?" }.joined(separator: ", "))
            WHERE key = ?\(Self.keyParameter)
            """), in: db)
        firstNewKey = try Int64.fetchOne(db, sql: "SELECT coalesce(max(key), 0) + 1 FROM stores")!
        nextKey = firstNewKey
        chunk.reserveCapacity(Self.rowsPerStatement)
    }

    /// Writes the stores of `batch`, whose text buffer is `text`; returns the
    /// outcome of each, in the order of the batch's rows.
    mutating func write(_ batch: RowBatch, text: UnsafeBufferPointer<UInt8>) throws -> [Outcome] {
        outcomes.removeAll(keepingCapacity: true)
        chunk.removeAll(keepingCapacity: true)
        for case let .store(store) in batch.rows {
            chunk.append(store)
            if chunk.count == Self.rowsPerStatement { try writeChunk(of: batch, text) }
        }
        if !chunk.isEmpty { try writeChunk(of: batch, text) }
        return outcomes
    }

    private mutating func writeChunk(of batch: RowBatch, _ text: UnsafeBufferPointer<UInt8>) throws {
        defer { chunk.removeAll(keepingCapacity: true) }
        let insert = try insertStatement(rows: chunk.count)
        insert.reset()
        for (index, store) in chunk.enumerated() {
            bind(store, of: batch, text, to: insert, firstParameter: Int32(index * Self.columns.count + 1))
        }
        try insert.step()
        insert.reset()
        let inserted = Int(insert.changes)
        if inserted == chunk.count {
            // Keys are handed out in VALUES order: max + 1 each.
            guard insert.lastInsertedKey == nextKey + Int64(inserted - 1) else {
                throw CatalogError.database(
                    "store keys are not increasing (got \(insert.lastInsertedKey), expected \(nextKey + Int64(inserted - 1)))")
            }
            for store in chunk {
                outcomes.append(.written(key: nextKey))
                newStoreLines.append(store.line)
                nextKey += 1
            }
        } else {
            for store in chunk { outcomes.append(try resolve(store, of: batch, text)) }
        }
    }

    /// What became of `store` in a statement that did not insert every row:
    /// inserted with the next key, a repeat of a store this import wrote, or
    /// an update of a store the catalog held.
    private mutating func resolve(
        _ store: RowBatch.StoreRow, of batch: RowBatch, _ text: UnsafeBufferPointer<UInt8>
    ) throws -> Outcome {
        find.reset()
        find.bind(borrowingUTF8: text[batch.range(of: .id, store)], at: 1)
        guard try find.step() else {
            throw CatalogError.database("store '\(batch.id(of: store))' vanished during the import")
        }
        let key = find.int64(0)
        let old = Coordinate(latitude: find.double(1), longitude: find.double(2))
        find.reset()
        if key == nextKey {
            nextKey += 1
            newStoreLines.append(store.line)
            return .written(key: key)
        }
        if key >= firstNewKey { return .duplicate(firstLine: newStoreLines.line(of: Int(key - firstNewKey))) }
        if updatedStores == nil { updatedStores = try UpdatedStores(db) }
        if let firstLine = try updatedStores!.record(key, line: store.line) { return .duplicate(firstLine: firstLine) }

        update.reset()
        bind(store, of: batch, text, to: update, firstParameter: 1)
        update.bind(key, at: Self.keyParameter)
        try update.step()
        update.reset()
        let new = Coordinate(latitude: store.latitude, longitude: store.longitude)
        if old != new {
            listsOfMovedStores.formUnion(try SpatialIndex.move(store: key, from: old, to: new, db))
        }
        return .written(key: key)
    }

    /// Drops what the import kept aside; call once every row is written.
    mutating func finish() throws {
        try updatedStores?.drop()
        updatedStores = nil
    }

    /// The insert of `rows` rows, prepared once per row count (the last
    /// statement of a batch is usually short).
    private mutating func insertStatement(rows: Int) throws -> RawStatement {
        if let statement = inserts[rows] { return statement }
        // OR FAIL: see BatchInsert; the ON CONFLICT clause still turns a
        // known id into no insert at all.
        let sql = multiRowSQL(
            "INSERT OR FAIL INTO stores (\(Self.columns.joined(separator: ", "))) VALUES ",
            columns: Self.columns.count, rows: rows) + " ON CONFLICT (id) DO NOTHING"
        let statement = RawStatement(try db.makeStatement(sql: sql), in: db)
        inserts[rows] = statement
        return statement
    }

    private func bind(
        _ store: RowBatch.StoreRow, of batch: RowBatch, _ text: UnsafeBufferPointer<UInt8>, to statement: RawStatement,
        firstParameter: Int32
    ) {
        for column in RowBatch.Column.allCases {
            let value = text[batch.range(of: column, store)]
            let parameter = firstParameter + Int32(column.rawValue)
            // Empty is NULL: the batch keeps no empty value (id and name are
            // never empty).
            if value.isEmpty {
                statement.bindNull(at: parameter)
            } else {
                statement.bind(borrowingUTF8: value, at: parameter)
            }
        }
        let coordinates = firstParameter + Int32(RowBatch.Column.allCases.count)
        statement.bind(store.latitude, at: coordinates)
        statement.bind(store.longitude, at: coordinates + 1)
    }
}
