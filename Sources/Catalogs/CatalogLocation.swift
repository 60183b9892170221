import CatalogServing
import PostgresCatalog
import StoreCatalog

/// Where a catalog lives, as `--db` and `CAROUSEL_DB` name it: a
/// `postgres://` or `postgresql://` URL is a PostgreSQL + PostGIS catalog,
/// anything else the path of a SQLite file.
///
/// The one place that tells the two apart: whatever opens a catalog from
/// a user's words goes through ``open(access:maxConnections:)`` and gets a
/// `CatalogEngine`, and nothing above it knows which engine it has.
public enum CatalogLocation: Sendable, Hashable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresURL)

    /// Reads a `--db` value. A URL that does not parse is a one-line
    /// `PostgresCatalogError` with its password masked.
    public init(_ text: String) throws {
        if PostgresURL.isPostgresURL(text) {
            self = .postgres(try PostgresURL(text))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// The path, or the URL with its password masked: safe in messages and
    /// logs.
    public var description: String {
        switch self {
        case let .sqlite(path): path
        case let .postgres(url): url.description
        }
    }

    /// Whether this is a PostgreSQL catalog.
    public var isPostgres: Bool {
        if case .postgres = self { return true }
        return false
    }

    /// Opens the catalog: a SQLite file is created and migrated as needed
    /// (or, for `Catalog.Access.read`, opened read-only when this process
    /// cannot write it); a PostgreSQL database is connected to, checked for
    /// PostGIS and migrated under an advisory lock, and opens at most
    /// `maxConnections` connections at once (a server's pool; a SQLite
    /// catalog has no such bound to take).
    public func open(
        access: Catalog.Access, maxConnections: Int = PostgresCatalog.standardMaxConnections
    ) async throws -> any ServingCatalog {
        switch self {
        case let .sqlite(path): try Catalog(path: path, access: access)
        case let .postgres(url): try await PostgresCatalog(url: url, maxConnections: maxConnections)
        }
    }
}
