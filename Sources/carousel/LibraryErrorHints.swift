import ArgumentParser
import StoreCatalog

/// The one place where the library's errors meet this tool's flags: the
/// library says what went wrong in its own terms (and carries SQLite's code
/// or the file position); here each case gets the flag or command that fixes
/// it.
enum LibraryErrorHints {
    /// `error` as this tool says it, or nil when the library's words stand.
    static func message(for error: any Error) -> String? {
        switch error {
        case let error as CatalogError: catalogMessage(error)
        case let error as ImportFileError: fileMessage(error)
        default: nil
        }
    }

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
        case .rowsRejected:
            "\(error); fix them or use --skip-invalid"
        case .cannotOpen:
            "\(error); pass another --db"
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

    /// `error` with its hint, as an error ArgumentParser prints on one line.
    static func withHint(_ error: any Error) -> any Error {
        message(for: error).map(CLIError.init) ?? error
    }
}

extension Carousel {
    /// ArgumentParser's `main()`, with the library's errors given this
    /// tool's hints on the way out.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: LibraryErrorHints.withHint(error))
        }
    }
}
