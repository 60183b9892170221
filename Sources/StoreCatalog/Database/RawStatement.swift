import GRDB
import GRDBSQLite

/// A prepared statement driven through the SQLite C API, for the loops that
/// run per row or per query: binding and stepping without GRDB's argument
/// boxing costs a third of the import's time.
///
/// Used only on statements no other code runs through GRDB, and left reset.
package struct RawStatement {
    private let statement: Statement  // owns the handle
    private let handle: SQLiteStatement
    private let connection: SQLiteConnection

    /// The connection's cached statement for `sql`, prepared once.
    package static func cached(_ sql: String, in db: Database) throws -> RawStatement {
        RawStatement(try db.cachedStatement(sql: sql), in: db)
    }

    package init(_ statement: Statement, in db: Database) {
        self.statement = statement
        handle = statement.sqliteStatement
        connection = db.sqliteConnection!
    }

    /// Clears the previous run so the statement can be bound again.
    package func reset() {
        sqlite3_reset(handle)
    }

    package func bind(_ value: Int64, at index: Int32) {
        sqlite3_bind_int64(handle, index, value)
    }

    package func bind(_ value: Double, at index: Int32) {
        sqlite3_bind_double(handle, index, value)
    }

    package func bind(_ value: String?, at index: Int32) {
        guard var text = value else {
            sqlite3_bind_null(handle, index)
            return
        }
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bindText($0, at: index) }
        }
    }

    /// Binds UTF-8 text (copied by SQLite), or NULL when `isNull`.
    package func bind(utf8 bytes: [UInt8], isNull: Bool = false, at index: Int32) {
        guard !isNull else {
            sqlite3_bind_null(handle, index)
            return
        }
        bytes.withUnsafeBytes { raw in
            bindText(raw.bindMemory(to: CChar.self), at: index)
        }
    }

    private func bindText(_ chars: UnsafeBufferPointer<CChar>, at index: Int32) {
        // An empty buffer may have no address; SQLite wants one.
        let empty: CChar = 0
        withUnsafePointer(to: empty) { emptyPointer in
            // SQLITE_TRANSIENT: SQLite copies the bytes before we return.
            _ = sqlite3_bind_text(
                handle, index, chars.baseAddress ?? emptyPointer, Int32(chars.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Runs one step: true when a row is ready, false when done.
    @discardableResult
    package func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_reset(handle)
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
        }
    }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    /// The column's text, nil for NULL.
    package func text(_ column: Int32) -> String? {
        guard let characters = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }
    package func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// Rows changed by the last completed step of this connection.
    package var changes: Int32 { sqlite3_changes(connection) }
    package var lastInsertedKey: Int64 { sqlite3_last_insert_rowid(connection) }
}
