import GRDB

/// Inserts rows into one table many at a time: one multi-row
/// `INSERT … VALUES (…), (…), …` per `rowsPerStatement` rows, so that
/// SQLite's per-statement work (starting the program, opening and seeking
/// the cursors, halting) is paid once per batch rather than once per row.
/// Appending in key order keeps each batch on the B-tree's last pages.
struct BatchInsert<Row> {
    private let db: Database
    private let prefix: String
    private let columnCount: Int
    private let rowsPerStatement: Int
    private let bind: (Row, RawStatement, _ firstParameter: Int32) -> Void
    private let full: RawStatement
    private var pending: [Row] = []

    /// `bind` binds one row's values to parameters `firstParameter`,
    /// `firstParameter + 1`, … (one per column).
    init(
        _ db: Database, into table: String, columns: [String], rowsPerStatement: Int = 100,
        bind: @escaping (Row, RawStatement, _ firstParameter: Int32) -> Void
    ) throws {
        self.db = db
        // OR FAIL: a constraint error still fails the statement (and the
        // import, which rolls back), but SQLite no longer keeps a statement
        // journal to undo the statement's earlier rows — a copy of every
        // page it touches, spilled to a temporary file past 64 KiB.
        prefix = "INSERT OR FAIL INTO \(table) (\(columns.joined(separator: ", "))) VALUES "
        columnCount = columns.count
        self.rowsPerStatement = rowsPerStatement
        self.bind = bind
        full = RawStatement(try db.makeStatement(sql: multiRowSQL(prefix, columns: columns.count, rows: rowsPerStatement)), in: db)
        pending.reserveCapacity(rowsPerStatement)
    }

    mutating func append(_ row: Row) throws {
        pending.append(row)
        if pending.count == rowsPerStatement { try flush(into: full) }
    }

    /// Writes the rows still pending.
    mutating func finish() throws {
        guard !pending.isEmpty else { return }
        try flush(
            into: RawStatement(
                try db.makeStatement(sql: multiRowSQL(prefix, columns: columnCount, rows: pending.count)), in: db))
    }

    private mutating func flush(into statement: RawStatement) throws {
        statement.reset()
        for (index, row) in pending.enumerated() {
            bind(row, statement, Int32(index * columnCount + 1))
        }
        try statement.step()
        statement.reset()
        pending.removeAll(keepingCapacity: true)
    }

}

/// `prefix` then `rows` tuples of `columns` parameters: `(?, ?), (?, ?)`.
func multiRowSQL(_ prefix: String, columns: Int, rows: Int) -> String {
    let tuple = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
    return prefix + Array(repeating: tuple, count: rows).joined(separator: ", ")
}
