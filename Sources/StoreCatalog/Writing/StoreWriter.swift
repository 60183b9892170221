import GRDB

/// Inserts the stores of a batch of rows into the list being imported, many
/// per statement, and tells an id repeated in the file.
///
/// A store belongs to one list (migration 0005): the list is new to this
/// import (a replaced list's stores are deleted first), so every row is a
/// new store, and the unique index on (list, id) catches an id repeated in
/// the file: an insert that does nothing met a store this import wrote.
/// Another list's stores are never read or written.
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
    /// The list the stores go in (a lists.key).
    private let list: Int64
    /// `INSERT … ON CONFLICT DO NOTHING` of `n` rows, by `n`.
    private var inserts: [Int: RawStatement] = [:]
    private let find: RawStatement
    /// The key the next new store gets.
    private var nextKey: Int64
    private let firstNewKey: Int64
    /// The line of each store this import created, by `key - firstNewKey`.
    private var newStoreLines = LineRuns()
    /// The outcome of each store of the batch being written (one buffer for
    /// all batches).
    private var outcomes: [Outcome] = []
    /// The stores of one statement.
    private var chunk: [RowBatch.StoreRow] = []

    /// The parameters of one row: the text columns in ``RowBatch/Column``
    /// order, then the coordinates; the list is bound once, after them all.
    private static let columns = ["id", "name", "address", "category", "phone", "attributes", "latitude", "longitude"]

    init(list: Int64, _ db: Database) throws {
        self.db = db
        self.list = list
        find = RawStatement(try db.makeStatement(sql: "SELECT key FROM stores WHERE list = ? AND id = ?"), in: db)
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
        insert.bind(list, at: Int32(chunk.count * Self.columns.count + 1))
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
    /// inserted with the next key, or a repeat of a store this import wrote.
    private mutating func resolve(
        _ store: RowBatch.StoreRow, of batch: RowBatch, _ text: UnsafeBufferPointer<UInt8>
    ) throws -> Outcome {
        find.reset()
        find.bind(list, at: 1)
        find.bind(borrowingUTF8: text[batch.range(of: .id, store)], at: 2)
        guard try find.step() else {
            throw CatalogError.database("store '\(batch.id(of: store))' vanished during the import")
        }
        let key = find.int64(0)
        find.reset()
        if key == nextKey {
            nextKey += 1
            newStoreLines.append(store.line)
            return .written(key: key)
        }
        // The list is new to this import, so a store it holds was written by it.
        guard key >= firstNewKey else {
            throw CatalogError.database("store '\(batch.id(of: store))' was in the list before its import")
        }
        return .duplicate(firstLine: newStoreLines.line(of: Int(key - firstNewKey)))
    }

    /// The insert of `rows` rows, prepared once per row count (the last
    /// statement of a batch is usually short).
    private mutating func insertStatement(rows: Int) throws -> RawStatement {
        if let statement = inserts[rows] { return statement }
        // OR FAIL: see BatchInsert; the ON CONFLICT clause still turns an
        // id already in the list into no insert at all. The list is one
        // parameter for every row, bound after theirs.
        let listParameter = rows * Self.columns.count + 1
        let values = (0..<rows).map { row in
            let first = row * Self.columns.count + 1
            return "(" + (first..<first + Self.columns.count).map { "?\($0)" }.joined(separator: ", ") + ", ?\(listParameter))"
        }
        let sql =
            "INSERT OR FAIL INTO stores (\(Self.columns.joined(separator: ", ")), list) VALUES "
            + values.joined(separator: ", ") + " ON CONFLICT (list, id) DO NOTHING"
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
