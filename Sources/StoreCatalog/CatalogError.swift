/// What can go wrong with the catalog, in the library's terms: what failed,
/// where, and the underlying code when SQLite reported it.
///
/// The messages name no command-line flag or command; a tool built on the
/// catalog adds its own hints (the `carousel` CLI maps each case to its
/// flags in one place).
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database was written with a newer schema than this library knows.
    case newerSchema(path: String, found: Int, known: Int)
    /// The file is not a SQLite database, or belongs to another application.
    case notACatalog(path: String, reason: String)
    /// No list has this name.
    case listNotFound(String)
    /// Importing into an existing list without ``ImportOptions/replace``.
    case listExists(String)
    /// A position past the end of a list.
    case positionOutOfRange(list: String, position: Int, count: Int)
    /// A bad query or import parameter.
    case invalidArgument(String)
    /// An all-or-nothing import met invalid or duplicate rows, or any
    /// import met more than its issue limit ("too many errors"), and wrote
    /// nothing; the report lists the first issues and counts them all.
    case rowsRejected(ImportReport)
    /// SQLite could not open or create the database file: `code` is its
    /// (extended) result code, `SQLITE_CANTOPEN` (14) and kin.
    case cannotOpen(path: String, code: Int32, message: String)
    /// SQLite failed (disk full, locked, I/O error…): `code` is its extended
    /// result code (its low byte the primary code), `message` its words.
    case sqlite(code: Int32, message: String)
    /// The catalog found its own data inconsistent (a row that should be
    /// there is not): a damaged file, or a bug.
    case database(String)

    /// SQLite's extended result code, when SQLite reported the failure.
    public var sqliteResultCode: Int32? {
        switch self {
        case let .cannotOpen(_, code, _), let .sqlite(code, _): code
        default: nil
        }
    }

    public var description: String {
        switch self {
        case let .newerSchema(path, found, known):
            "\(path) was written with a newer catalog schema (\(found)) than this version knows (up to \(known))"
        case let .notACatalog(path, reason):
            "\(path) is not a store catalog (\(reason))"
        case let .listNotFound(name):
            "no list named '\(name)'"
        case let .listExists(name):
            "a list named '\(name)' already exists"
        case let .positionOutOfRange(list, position, count):
            "list '\(list)' has no position \(position) (it holds \(count) stores, positions 0..<\(count))"
        case let .invalidArgument(reason):
            reason
        case let .rowsRejected(report) where report.stoppedEarly:
            "nothing imported into '\(report.list)': too many errors (stopped after \(report.rejected) invalid rows)"
        case let .rowsRejected(report):
            "nothing imported into '\(report.list)': \(report.rejected) invalid row\(report.rejected == 1 ? "" : "s")"
        case let .cannotOpen(path, code, message):
            "cannot open \(path): the file and its folder must exist and be writable (SQLite error \(code): \(message))"
        case let .sqlite(code, message):
            "database error (SQLite error \(code)): \(message)"
        case let .database(reason):
            "database error: \(reason)"
        }
    }
}
