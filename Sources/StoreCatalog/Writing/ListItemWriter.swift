import GRDB
import Geo

/// Writes a list's items in its carousel order: straight through in file
/// order, or staged in a temporary table and numbered by one sorted
/// `INSERT … SELECT` for name and distance orders (SQLite sorts within its
/// own memory bounds, whatever the file's size).
struct ListItemWriter {
    private struct Item {
        var position: Int64
        var store: Int64
        var distance: Double
    }

    private let list: Int64
    private let order: ImportOrder
    private var items: BatchInsert<Item>
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
            items = try BatchInsert(db, into: "list_items", columns: ["list", "position", "store"]) { item, statement, first in
                statement.bind(list, at: first)
                statement.bind(item.position, at: first + 1)
                statement.bind(item.store, at: first + 2)
            }
        case .name, .distance:
            if case let .distance(origin) = order { distance = DistanceFrom(origin) } else { distance = nil }
            try db.execute(
                sql: """
                    CREATE TEMP TABLE import_order (position INTEGER PRIMARY KEY, store INTEGER NOT NULL, distance REAL)
                    """)
            items = try BatchInsert(
                db, into: "temp.import_order", columns: ["position", "store", "distance"]
            ) { item, statement, first in
                statement.bind(item.position, at: first)
                statement.bind(item.store, at: first + 1)
                statement.bind(item.distance, at: first + 2)
            }
        }
    }

    /// Adds the next imported store.
    mutating func append(store: Int64, coordinate: Coordinate) throws {
        let meters = distance?.meters(toLatitude: coordinate.latitude, longitude: coordinate.longitude) ?? 0
        try items.append(Item(position: position, store: store, distance: meters))
        position += 1
    }

    /// Writes what is pending and, for the sorted orders, numbers the staged
    /// items.
    mutating func finish() throws {
        try items.finish()
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
