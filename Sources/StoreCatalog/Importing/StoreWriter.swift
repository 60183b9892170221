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
    /// The attributes JSON of the row being written (one buffer for all).
    private var attributes: [UInt8] = []

    init(_ db: Database) throws {
        self.db = db
        insert = RawStatement(try db.makeStatement(sql: """
            INSERT INTO stores (id, name, latitude, longitude, address, category, phone, attributes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING
            """), in: db)
        find = RawStatement(try db.makeStatement(sql: "SELECT key, latitude, longitude FROM stores WHERE id = ?"), in: db)
        update = RawStatement(try db.makeStatement(sql: """
            UPDATE stores SET id = ?, name = ?, latitude = ?, longitude = ?, address = ?, category = ?,
                phone = ?, attributes = ?
            WHERE key = ?9
            """), in: db)
        firstNewKey = try Int64.fetchOne(db, sql: "SELECT coalesce(max(key), 0) + 1 FROM stores")!
        nextKey = firstNewKey
    }

    mutating func write(_ store: Store, line: Int) throws -> Outcome {
        insert.reset()
        bind(store, to: insert)
        try insert.step()
        if insert.changes == 1 {
            let key = insert.lastInsertedKey
            guard key == nextKey else {
                throw CatalogError.database("store keys are not increasing (got \(key), expected \(nextKey))")
            }
            nextKey += 1
            newStoreLines.append(Int32(clamping: line))
            return .written(key: key)
        }

        find.reset()
        find.bind(store.id, at: 1)
        guard try find.step() else { throw CatalogError.database("store '\(store.id)' vanished during the import") }
        let key = find.int64(0)
        let old = Coordinate(latitude: find.double(1), longitude: find.double(2))
        find.reset()
        if key >= firstNewKey { return .duplicate(firstLine: Int(newStoreLines[Int(key - firstNewKey)])) }
        if let firstLine = updatedStoreLines[key] { return .duplicate(firstLine: firstLine) }
        updatedStoreLines[key] = line

        update.reset()
        bind(store, to: update)
        update.bind(key, at: 9)
        try update.step()
        update.reset()
        if old != store.coordinate {
            try SpatialIndex.move(store: key, from: old, to: store.coordinate, db)
        }
        return .written(key: key)
    }

    private mutating func bind(_ store: Store, to statement: RawStatement) {
        statement.bind(store.id, at: 1)
        statement.bind(store.name, at: 2)
        statement.bind(store.latitude, at: 3)
        statement.bind(store.longitude, at: 4)
        statement.bind(store.address, at: 5)
        statement.bind(store.category, at: 6)
        statement.bind(store.phone, at: 7)
        let hasAttributes = AttributesJSON.encode(store.attributes, into: &attributes)
        statement.bind(utf8: attributes, isNull: !hasAttributes, at: 8)
    }
}
