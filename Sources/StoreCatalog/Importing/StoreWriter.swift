import GRDB

/// Inserts or updates one store per row, and tells a store repeated in the
/// file from one already in the catalog.
///
/// The database's unique index on `id` finds both: an insert that does
/// nothing met an existing id. If its key was handed out by this import
/// (keys grow: SQLite gives max + 1), the id is repeated in the file;
/// otherwise the store predates the import and is updated — once.
struct StoreWriter {
    enum Outcome {
        case written(key: Int64)
        case duplicate(firstLine: Int)
    }

    private let insert: RawStatement
    private let find: RawStatement
    private let update: RawStatement
    private let db: Database
    /// The key the next new store gets.
    private var nextKey: Int64
    private let firstNewKey: Int64
    /// The line of each store this import created, by `key - firstNewKey`.
    private var newStoreLines: [Int32] = []
    /// The line of each existing store this import updated.
    private var updatedStoreLines: [Int64: Int] = [:]

    /// The parameters of the insert and the update: the text columns in
    /// ``RowBatch/Column`` order, then the coordinates (and the update's key).
    private static let latitudeParameter = Int32(RowBatch.Column.allCases.count + 1)
    private static let longitudeParameter = latitudeParameter + 1
    private static let keyParameter = latitudeParameter + 2

    init(_ db: Database) throws {
        self.db = db
        insert = RawStatement(try db.makeStatement(sql: """
            INSERT INTO stores (id, name, address, category, phone, attributes, latitude, longitude)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
            """), in: db)
        find = RawStatement(try db.makeStatement(sql: "SELECT key, latitude, longitude FROM stores WHERE id = ?"), in: db)
        update = RawStatement(try db.makeStatement(sql: """
            UPDATE stores SET id = ?, name = ?, address = ?, category = ?, phone = ?, attributes = ?,
                latitude = ?, longitude = ?
            WHERE key = ?\(Self.keyParameter)
            """), in: db)
        firstNewKey = try Int64.fetchOne(db, sql: "SELECT coalesce(max(key), 0) + 1 FROM stores")!
        nextKey = firstNewKey
    }

    /// Writes `store`, a row of `batch` whose text buffer is `text`.
    mutating func write(_ store: RowBatch.Store, of batch: RowBatch, text: UnsafeBufferPointer<UInt8>) throws -> Outcome {
        insert.reset()
        bind(store, of: batch, text, to: insert)
        try insert.step()
        if insert.changes == 1 {
            let key = insert.lastInsertedKey
            guard key == nextKey else {
                throw CatalogError.database("store keys are not increasing (got \(key), expected \(nextKey))")
            }
            nextKey += 1
            newStoreLines.append(Int32(clamping: store.line))
            return .written(key: key)
        }

        find.reset()
        find.bind(borrowingUTF8: text[batch.range(of: .id, store)], at: 1)
        guard try find.step() else {
            throw CatalogError.database("store '\(batch.id(of: store))' vanished during the import")
        }
        let key = find.int64(0)
        let old = Coordinate(latitude: find.double(1), longitude: find.double(2))
        find.reset()
        if key >= firstNewKey { return .duplicate(firstLine: Int(newStoreLines[Int(key - firstNewKey)])) }
        if let firstLine = updatedStoreLines[key] { return .duplicate(firstLine: firstLine) }
        updatedStoreLines[key] = store.line

        update.reset()
        bind(store, of: batch, text, to: update)
        update.bind(key, at: Self.keyParameter)
        try update.step()
        update.reset()
        let new = Coordinate(latitude: store.latitude, longitude: store.longitude)
        if old != new {
            try SpatialIndex.move(store: key, from: old, to: new, db)
        }
        return .written(key: key)
    }

    private func bind(
        _ store: RowBatch.Store, of batch: RowBatch, _ text: UnsafeBufferPointer<UInt8>, to statement: RawStatement
    ) {
        for column in RowBatch.Column.allCases {
            let value = text[batch.range(of: column, store)]
            // Empty is NULL: the batch keeps no empty value (id and name are
            // never empty).
            if value.isEmpty {
                statement.bindNull(at: Int32(column.rawValue + 1))
            } else {
                statement.bind(borrowingUTF8: value, at: Int32(column.rawValue + 1))
            }
        }
        statement.bind(store.latitude, at: Self.latitudeParameter)
        statement.bind(store.longitude, at: Self.longitudeParameter)
    }
}
