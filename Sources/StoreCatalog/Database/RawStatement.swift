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
        guard var text = value else { return bindNull(at: index) }
        text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bindText($0, at: index) }
        }
    }

    /// Binds UTF-8 text that SQLite reads in place (`SQLITE_STATIC`): no
    /// copy, no allocation, which the importer's six text columns per row
    /// measurably pay for. The bytes must stay valid and unchanged until
    /// the statement is rebound or finalized; the caller binds every
    /// parameter before each step.
    package func bind(borrowingUTF8 bytes: Slice<UnsafeBufferPointer<UInt8>>, at index: Int32) {
        // An empty slice may have no address; a static empty string has one
        // for as long as the process runs.
        let empty: StaticString = ""
        let start = UnsafeRawPointer(bytes.isEmpty ? empty.utf8Start : bytes.base.baseAddress! + bytes.startIndex)
        _ = sqlite3_bind_text(handle, index, start.assumingMemoryBound(to: CChar.self), Int32(bytes.count), nil)
    }

    package func bindNull(at index: Int32) {
        sqlite3_bind_null(handle, index)
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
    /// Whether the column is NULL.
    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// Runs `body` over the column's UTF-8 bytes where SQLite holds them (valid
    /// until the next step or reset); nil for NULL, without calling `body`.
    package func withUTF8<T, E: Error>(
        _ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> T
    ) throws(E) -> T? {
        guard let characters = sqlite3_column_text(handle, column) else { return nil }
        return try body(UnsafeBufferPointer(start: characters, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// Runs `body` over the column's bytes where SQLite holds them (valid
    /// until the next step or reset): an empty buffer for NULL or empty.
    package func withBlob<T, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
        let start = sqlite3_column_blob(handle, column)
        return try body(UnsafeRawBufferPointer(start: start, count: start == nil ? 0 : Int(sqlite3_column_bytes(handle, column))))
    }

    /// Binds bytes that SQLite copies before returning (`SQLITE_TRANSIENT`).
    package func bind(bytes: [UInt8], at index: Int32) {
        bytes.withUnsafeBytes { buffer in
            _ = sqlite3_bind_blob64(
                handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, sqlite3_uint64(buffer.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Rows changed by the last completed step of this connection.
    package var changes: Int32 { sqlite3_changes(connection) }
    package var lastInsertedKey: Int64 { sqlite3_last_insert_rowid(connection) }
}
