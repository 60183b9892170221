import CatalogServing
import StoreCatalog

/// Why the PostgreSQL catalog cannot be used: each a one line message that
/// names the URL with its password masked (`PostgresURL.description`).
public enum PostgresCatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not a PostgreSQL URL: the masked text, and why.
    case invalidURL(String, String)
    /// No connection: the masked URL, and the server's or the network's reason.
    case unreachable(String, String)
    /// The server refused the user or password.
    case authentication(String, String)
    /// The database has no PostGIS and the user may not add it.
    case noPostGIS(String)
    /// The database's schema is newer than this binary's.
    case schemaTooNew(String, found: Int, latest: Int)
    /// Any other error of the server, in one line.
    case database(String, String)

    public var description: String {
        switch self {
        case let .invalidURL(url, why): "not a PostgreSQL URL: \(url): \(why)"
        case let .unreachable(url, why): "cannot connect to \(url): \(why)"
        case let .authentication(url, why): "cannot log in to \(url): \(why)"
        case let .noPostGIS(url):
            "\(url) has no PostGIS: run CREATE EXTENSION postgis; in that database as a superuser (or install PostGIS 3)"
        case let .schemaTooNew(url, found, latest):
            "\(url) has schema version \(found), newer than this binary's \(latest): use a newer carousel"
        case let .database(url, why): "PostgreSQL error on \(url): \(why)"
        }
    }
}

extension PostgresCatalogError: CatalogUnavailableError {
    /// No connection could be made: the database is down or away.
    public var isUnavailable: Bool {
        if case .unreachable = self { return true }
        return false
    }
}
