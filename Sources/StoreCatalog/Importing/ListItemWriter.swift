import GRDB

/// Writes a list's items in its carousel order: straight through in file
/// order, or staged in a temporary table and numbered by one sorted
/// `INSERT … SELECT` for name and distance orders (SQLite sorts within its
/// own memory bounds, whatever the file's size).
struct ListItemWriter {
    private let list: Int64
    private let order: ImportOrder
    private let statement: RawStatement
    private let distance: DistanceFrom?
    private var position: Int64 = 0
    private let db: Database

    init(list: Int64, order: ImportOrder, _ db: Database) throws {
        self.list = list
        self.order = order
        self.db = db
        switch order {
        case .file:
            distance = nil
            statement = RawStatement(try db.makeStatement(
                sql: "INSERT INTO list_items (list, position, store) VALUES (?, ?, ?)"), in: db)
            statement.bind(list, at: 1)
        case .name, .distance:
            if case let .distance(origin) = order { distance = DistanceFrom(origin) } else { distance = nil }
            try db.execute(sql: """
                CREATE TEMP TABLE import_order (position INTEGER PRIMARY KEY, store INTEGER NOT NULL, distance REAL)
                """)
            statement = RawStatement(try db.makeStatement(
                sql: "INSERT INTO temp.import_order (position, store, distance) VALUES (?, ?, ?)"), in: db)
        }
    }

    /// Adds the next imported store.
    mutating func append(store: Int64, name: String, coordinate: Coordinate) throws {
        statement.reset()
        switch order {
        case .file:
            statement.bind(position, at: 2)
            statement.bind(store, at: 3)
        case .name, .distance:
            statement.bind(position, at: 1)
            statement.bind(store, at: 2)
            statement.bind(distance?.meters(toLatitude: coordinate.latitude, longitude: coordinate.longitude) ?? 0, at: 3)
        }
        try statement.step()
        position += 1
    }

    /// Numbers the staged items, for the sorted orders.
    func finish() throws {
        statement.reset()
        let sortKey: String
        switch order {
        case .file: return
        // NOCASE folds ASCII only; ties keep file order.
        case .name: sortKey = "s.name COLLATE NOCASE, s.name, o.position"
        case .distance: sortKey = "o.distance, o.position"
        }
        try db.execute(
            sql: """
                INSERT INTO list_items (list, position, store)
                SELECT ?, row_number() OVER (ORDER BY \(sortKey)) - 1, o.store
                FROM temp.import_order AS o JOIN stores AS s ON s.key = o.store
                ORDER BY 2
                """,
            arguments: [list])
        try db.execute(sql: "DROP TABLE temp.import_order")
    }
}
