import Foundation
import StoreCatalog

/// A store catalog as a server serves it: a ``CatalogEngine`` with API
/// tokens, a watch of its changes, reads that run beside each other and the
/// whole catalog in memory for nearest searches.
///
/// Apart from `CatalogEngine` (in StoreCatalog), so that an app that keeps
/// its stores in a catalog links GRDB and nothing of the server: neither
/// this module nor swift-crypto, which hashes the tokens. ``Catalog``
/// (SQLite) conforms here, `PostgresCatalog` in its own module.
public protocol ServingCatalog: CatalogEngine {
    /// Creates an API token for `carousel serve` and returns it: the only
    /// time it is seen, as only its SHA-256 is kept.
    func createToken(named name: String, scope: TokenScope) async throws -> String

    /// The tokens by name, with their scope, creation and last use.
    func tokens() async throws -> [TokenSummary]

    /// Revokes the token named `name`.
    func revokeToken(named name: String) async throws

    /// Whether any token may write: a server without one takes no writes.
    func hasWriteToken() async throws -> Bool

    /// The name and scope of the token `token`, or nil when it is unknown
    /// or revoked; compared in constant time.
    func verifyToken(_ token: String) async throws -> (name: String, scope: TokenScope)?

    /// Records that token `name` was used at `date` (`carousel tokens` shows it).
    func noteTokenUsed(named name: String, at date: Date) async throws

    /// The schema version of the catalog now, and the one this build
    /// writes: a server is ready only when they are the same.
    func schemaVersion() async throws -> Int
    var latestSchemaVersion: Int { get }

    /// A handle for reads that run beside this one's: SQLite, the same file
    /// read on a connection per lane thread; PostgreSQL, the catalog
    /// itself, whose pool gives each call a connection. nil when there can
    /// be none (a SQLite catalog in memory): reads then share this handle.
    func concurrentReader() throws -> (any ServingCatalog)?

    /// A watch of the catalog's data version, on a connection of its own
    /// (nil for a SQLite catalog in memory, which nothing else can change):
    /// what a server's entity tags, list-following sessions and in-memory
    /// answers check before they trust what they hold.
    func changeWatch() throws -> (any CatalogChangeWatch)?

    /// An in-memory nearest-store index of the whole catalog with an
    /// `element` per store, or nil when the catalog holds more than
    /// `maxEntries` stores and list items together (or in memory).
    func nearestSnapshot<Element: Sendable>(maxEntries: Int, _ element: (Store) throws -> Element) async throws
        -> NearestSnapshot<Element>?
}

/// How a server learns that the catalog changed, whoever changed it: this
/// process, another process on the same SQLite file, or another node on
/// the same PostgreSQL database.
public protocol CatalogChangeWatch: Sendable {
    /// A number that moves with every commit that changes the catalog's
    /// stores or lists: equal numbers, the same data. SQLite's `PRAGMA
    /// data_version` on this watch's connection; on PostgreSQL the catalog's
    /// change counter as the last `NOTIFY` gave it (at most a notification's
    /// latency behind a commit, well under a second), read from the
    /// database while the listening connection is down.
    func dataVersion() async throws -> Int64

    /// The version of list `name` (nil: no such list): it moves whenever
    /// the list is imported anew, replaced or renamed to, never otherwise.
    func listVersion(named name: String) async throws -> Int64?
}
