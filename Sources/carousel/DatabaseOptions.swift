import ArgumentParser
import Foundation
import StoreCatalog

/// `--db PATH`: where the catalog lives, for every command that opens it.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The catalog database.",
            discussion: """
                Default: $CAROUSEL_DB, else $XDG_DATA_HOME/carousel/carousel.sqlite, \
                else ~/.local/share/carousel/carousel.sqlite.
                """,
            valueName: "path"))
    var path: String?

    /// An empty `--db` would reach SQLite as a private temporary database
    /// and fail later with a message that names no file.
    func validate() throws {
        if path?.isEmpty == true { throw CLIError("--db needs a path (got an empty value)") }
    }

    /// `--db`, else `$CAROUSEL_DB`, else the per-user default.
    func resolvedPath(environment: [String: String]? = nil) throws -> String {
        try Self.resolvedPath(path, environment: environment)
    }

    /// `path` (a `--db` value), else `$CAROUSEL_DB`, else the per-user
    /// default; `environment` is the process's unless given.
    static func resolvedPath(_ path: String?, environment: [String: String]? = nil) throws -> String {
        if let path { return path }
        // Read only when needed: a copy of the whole environment is work a
        // cold start with `--db` does not have to do.
        let environment = environment ?? ProcessInfo.processInfo.environment
        if let path = environment["CAROUSEL_DB"], !path.isEmpty { return path }
        let dataHome: URL
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = URL(fileURLWithPath: xdg)
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = URL(fileURLWithPath: home).appendingPathComponent(".local/share")
        } else {
            throw CLIError("no database given: pass --db PATH or set CAROUSEL_DB (HOME is not set)")
        }
        let folder = dataHome.appendingPathComponent("carousel")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(folder.path) for the default database; pass --db PATH", status: .io)
        }
        return folder.appendingPathComponent("carousel.sqlite").path
    }

    /// Opens (creating and migrating if needed) the catalog.
    func openCatalog() throws -> Catalog {
        try Catalog(path: resolvedPath())
    }

    /// The catalog for a command that only reads it: a file this process
    /// cannot write is opened read-only rather than refused.
    func openCatalogForReading() throws -> Catalog {
        try Self.openCatalogForReading(path)
    }

    /// The catalog at `path` (a `--db` value, or nil for the default) for a
    /// command that only reads it.
    static func openCatalogForReading(_ path: String?) throws -> Catalog {
        try Catalog(path: resolvedPath(path), access: .read)
    }
}
