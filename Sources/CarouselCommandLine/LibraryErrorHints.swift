import ArgumentParser
import CatalogServing
import StoreCatalog

/// The one place where the library's errors meet this tool's flags: the
/// library says what went wrong in its own terms (and carries SQLite's code
/// or the file position); here each case gets the flag or command that fixes
/// it. ``ErrorReport`` takes the words from here and adds the exit status.
enum LibraryErrorHints {
    static func catalogMessage(_ error: CatalogError) -> String {
        switch error {
        // The database is "a carousel database" to users of this tool.
        case let .newerSchema(path, found, known):
            "\(path) was written by a newer carousel (schema \(found), this one knows up to \(known)); upgrade carousel"
        case let .notACatalog(path, reason):
            "\(path) is not a carousel database (\(reason)); pass another --db"
        case .listNotFound:
            "\(error); see `carousel lists`"
        case .listExists:
            "\(error); use --replace to replace it"
        case let .rowsRejected(report) where report.stoppedEarly:
            "\(error); is it a store file? --max-issues raises the limit"
        case .rowsRejected:
            "\(error); fix them or use --skip-invalid"
        case .cannotOpen:
            "\(error); pass another --db"
        case let .sqlite(code, message) where code & 0xFF == 8 && message.contains("read-only"):
            // SQLITE_READONLY on an open catalog: the library's line names
            // the file and says reads still work; nothing to add.
            message
        case let .sqlite(_, message) where message.contains("WAL"):
            // GRDB's words when the folder of a new database is read-only.
            "cannot open the database: its folder must exist and be writable; pass another --db"
        case let .sqlite(code, _) where [3, 8, 14].contains(code & 0xFF):
            // SQLITE_PERM, SQLITE_READONLY, SQLITE_CANTOPEN: the file or its
            // folder (where the WAL goes) is not writable.
            "\(error); the database's folder must be writable, or pass another --db"
        case .positionOutOfRange, .invalidArgument, .sqlite, .database:
            error.description
        }
    }

    static func fileMessage(_ error: ImportFileError) -> String {
        guard error.likelyFormat != nil else { return error.description }
        return "\(error) (GeoJSON is --format geojson, one object per line is --format jsonl)"
    }
}
