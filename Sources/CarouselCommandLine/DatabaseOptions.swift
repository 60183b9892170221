import ArgumentParser
import CatalogServing
import Foundation
import Locks
import StoreCatalog

/// `--db PATH` or `--db URL`: where the catalog lives, for every command
/// that opens it. A `postgres://` or `postgresql://` URL is a PostgreSQL +
/// PostGIS catalog (``CatalogLocation``); anything else a SQLite file.
package struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The catalog: a SQLite file, or a postgres:// URL (PostgreSQL + PostGIS).",
            discussion: """
                Default: $CAROUSEL_DB, else $XDG_DATA_HOME/carousel/carousel.sqlite, \
                else ~/.local/share/carousel/carousel.sqlite. A URL takes libpq's forms: \
                postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=MODE, or ?host=/socket/dir.
                """,
            valueName: "path|url"))
    package var path: String?

    package init() {}

    /// An empty `--db` would reach SQLite as a private temporary database
    /// and fail later with a message that names no file.
    package func validate() throws {
        if path?.isEmpty == true { throw CLIError("--db needs a path (got an empty value)") }
    }

    /// ``resolvedPath(environment:)`` for `carousel sync`, run by `carousel-net`.
    package func resolvedPathForSync() throws -> String {
        try resolvedPath()
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

    /// Opens the catalog, SQLite or PostgreSQL, for a command written
    /// against ``CatalogEngine`` alone.
    func openEngine(access: Catalog.Access) async throws -> any ServingCatalog {
        try await Self.openEngine(path, access: access)
    }

    /// ``openEngine(access:)`` for a synchronous command: opened on the
    /// concurrency runtime's pool while this thread waits.
    /// `maxConnections` bounds a PostgreSQL catalog's pool (nil: its
    /// standard size); a SQLite catalog has no such bound to take.
    package func openEngineWaiting(access: Catalog.Access, maxConnections: Int? = nil) throws -> any ServingCatalog {
        try Blocking.wait { [path] in try await Self.openEngine(path, access: access, maxConnections: maxConnections) }
    }

    /// The catalog `path` names (a `--db` value, or nil for the default):
    /// a SQLite file is created and migrated as needed (or, for
    /// `Catalog.Access.read`, opened read-only when this process cannot
    /// write it); a PostgreSQL URL is opened by ``NetworkFeatures``.
    static func openEngine(
        _ path: String?, access: Catalog.Access, maxConnections: Int? = nil
    ) async throws -> any ServingCatalog {
        let path = try resolvedPath(path)
        guard isPostgresURL(path) else { return try Catalog(path: path, access: access) }
        return try await Carousel.requireNetwork().openPostgres(url: path, access: access, maxConnections: maxConnections)
    }

    /// Whether a `--db` value names a PostgreSQL catalog rather than a
    /// SQLite file.
    static func isPostgresURL(_ path: String) -> Bool {
        PostgresScheme.matches(path)
    }

    /// `path`, or a one-line refusal when it is a PostgreSQL URL: `demo`,
    /// which makes a SQLite catalog of its own, does not work on PostgreSQL.
    static func sqliteOnly(_ path: String) throws -> String {
        guard isPostgresURL(path) else { return path }
        let location = try Carousel.requireNetwork().describe(url: path)
        throw CLIError(
            "this command does not work on a PostgreSQL catalog yet (\(location)); "
                + "every command but demo does", status: .usage)
    }
}
