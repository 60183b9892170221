/// What can go wrong with the catalog, in words a user can act on.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The database was written by a newer carousel.
    case newerSchema(path: String, found: Int, known: Int)
    /// The file is not a SQLite database, or belongs to another application.
    case notACatalog(path: String, reason: String)
    case listNotFound(String)
    /// Importing into an existing list without `replace`.
    case listExists(String)
    case positionOutOfRange(list: String, position: Int, count: Int)
    /// A bad query or import parameter.
    case invalidArgument(String)
    /// An all-or-nothing import met invalid or duplicate rows and wrote
    /// nothing; the report lists every issue.
    case rowsRejected(ImportReport)
    /// SQLite failed (disk full, locked, corrupt…).
    case database(String)

    public var description: String {
        switch self {
        case let .newerSchema(path, found, known):
            "\(path) was written by a newer carousel (schema \(found), this one knows up to \(known)); upgrade carousel"
        case let .notACatalog(path, reason):
            "\(path) is not a carousel database (\(reason)); pass another --db"
        case let .listNotFound(name):
            "no list named '\(name)'; see `carousel lists`"
        case let .listExists(name):
            "list '\(name)' already exists; use --replace to replace it"
        case let .positionOutOfRange(list, position, count):
            "list '\(list)' has no position \(position) (it holds \(count) stores, positions 0..<\(count))"
        case let .invalidArgument(reason):
            reason
        case let .rowsRejected(report):
            "nothing imported into '\(report.list)': \(report.rejected) invalid row\(report.rejected == 1 ? "" : "s")"
                + "; fix them or use --skip-invalid"
        case let .database(reason):
            "database error: \(reason)"
        }
    }
}
