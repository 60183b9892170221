import CatalogServing
import Foundation
import Locks
import Logging
import PostgresNIO
import StoreCatalog
import WorkLanes

/// What a server needs of the catalog besides the CLI's commands: pages,
/// one store by id, tokens checked, the versions that tell several nodes
/// of each other's commits, and the nearest-store snapshot.
extension PostgresCatalog: ServingCatalog {
    /// A PostgreSQL catalog is written through whatever its URL's role may
    /// do: a write the role may not make fails with the server's message.
    public var isReadOnly: Bool { false }

    public var latestSchemaVersion: Int { Self.latestSchemaVersion }

    /// The catalog itself: its pool gives each call a connection.
    public func concurrentReader() throws -> (any ServingCatalog)? { self }

    /// A watch that listens on a connection of its own (see
    /// ``PostgresChangeWatch``).
    public func changeWatch() throws -> (any CatalogChangeWatch)? {
        PostgresChangeWatch(catalog: self)
    }

    /// The `limit` stores of `list` from `position`, in carousel order.
    public func stores(list: String, from position: Int, limit: Int) async throws -> [Store] {
        guard position >= 0 else { throw CatalogError.invalidArgument("a list position is 0 or more (got \(position))") }
        guard limit > 0 else { throw CatalogError.invalidArgument("the limit must be at least 1 (got \(limit))") }
        var page: [Store] = []
        try await forEachStore(list: list, offset: position, limit: limit) { _, store in page.append(store) }
        return page
    }

    /// The store of `list` with id `id`: one seek on `UNIQUE (list, id)`.
    public func store(list: String, id: String) async throws -> Store? {
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            // An id with a NUL is no store's: imports refuse one.
            if PostgresText.holdsNUL(id) { return nil }
            return try await connection.query(
                "SELECT \(unescaped: Self.storeColumns) FROM stores AS s WHERE s.list = \(key) AND s.id = \(id)", logger: logger
            ).collect(StoreRow.self).first.map(Self.store)
        }
    }

    /// The version of list `name` (migration 0004), or nil.
    public func listVersion(named name: String) async throws -> Int64? {
        // A name with a NUL is no list's (imports refuse one).
        if PostgresText.holdsNUL(name) { return nil }
        return try await withConnection { connection in
            try await connection.query("SELECT version FROM lists WHERE name = \(name)", logger: logger).collect(Int64.self).first
        }
    }

    /// The catalog's change counter as committed (migration 0004).
    func committedDataVersion() async throws -> Int64 {
        try await withConnection { connection in try await Self.committedDataVersion(connection, logger: logger) }
    }

    static func committedDataVersion(_ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        try await connection.query("SELECT version FROM carousel_changes", logger: logger).collect(Int64.self).first ?? 0
    }

    public func hasWriteToken() async throws -> Bool {
        try await withConnection { connection in
            try await !connection.query("SELECT 1 FROM api_tokens WHERE scope = 'write' LIMIT 1", logger: logger)
                .collect(Int32.self).isEmpty
        }
    }

    /// As the SQLite catalog checks a token: found by its hash, then the
    /// stored hash compared in constant time.
    public func verifyToken(_ token: String) async throws -> (name: String, scope: TokenScope)? {
        guard token.utf8.count <= 256 else { return nil }
        let hash = Catalog.tokenHash(token)
        let found = try await withConnection { connection in
            try await connection.query(
                "SELECT name, scope, hash FROM api_tokens WHERE hash = \(ByteBuffer(bytes: hash))", logger: logger
            ).collect((String, String, ByteBuffer).self).first
        }
        guard let found, Catalog.constantTimeEqual(Array(buffer: found.2), hash), let scope = TokenScope(rawValue: found.1) else {
            return nil
        }
        return (found.0, scope)
    }

    /// Records the use to the minute, as the SQLite catalog does.
    public func noteTokenUsed(named name: String, at date: Date) async throws {
        let minute = Int64(date.timeIntervalSince1970) / 60 * 60
        try await withConnection { connection in
            _ = try await connection.query(
                "UPDATE api_tokens SET last_used = \(minute) WHERE name = \(name) AND coalesce(last_used, -1) <> \(minute)",
                logger: logger)
        }
    }

    /// The whole catalog in memory, read in one repeatable-read
    /// transaction (one state, as the SQLite catalog's one read
    /// transaction): the stores in key order, then each list's keys.
    public func nearestSnapshot<Element: Sendable>(maxEntries: Int, _ element: (Store) throws -> Element) async throws
        -> NearestSnapshot<Element>?
    {
        try await withConnection { connection in
            _ = try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let snapshot = try await readSnapshot(connection, maxEntries: maxEntries, element)
                _ = try await connection.query("COMMIT", logger: logger)
                return snapshot
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    private func readSnapshot<Element: Sendable>(
        _ connection: PostgresConnection, maxEntries: Int, _ element: (Store) throws -> Element
    ) async throws -> NearestSnapshot<Element>? {
        let entries =
            try await connection.query(
                "SELECT ((SELECT count(*) FROM stores) + (SELECT count(*) FROM list_items))::bigint", logger: logger
            ).collect(Int.self).first ?? 0
        guard NearestSnapshot<Element>.fits(entries: entries, maxEntries: maxEntries) else { return nil }
        var builder = NearestSnapshot<Element>.Builder()
        let stores = try await connection.query(
            "SELECT s.key, \(unescaped: Self.storeColumns) FROM stores AS s ORDER BY s.key", logger: logger)
        for try await row in stores.decode((Int64, String, String, Double, Double, String?, String?, String?, String?).self) {
            let store = try Self.store((row.1, row.2, row.3, row.4, row.5, row.6, row.7, row.8))
            try builder.add(store, key: row.0, element: try element(store))
        }
        let lists = try await connection.query("SELECT key, name FROM lists", logger: logger).collect((Int64, String).self)
        for (key, name) in lists {
            let keys = try await connection.query("SELECT store FROM list_items WHERE list = \(key)", logger: logger)
                .collect(Int64.self)
            try builder.addList(name, storeKeys: keys)
        }
        return try await WorkLane.bulk.run { builder.build() }
    }
}

/// The catalog's data version on one node, kept by `LISTEN
/// carousel_changes`: every commit that changes a list notifies its new
/// counter (migration 0004), so reading the version costs no query while
/// the listening connection is up. A notification arrives within
/// milliseconds of the commit on a local network; the bound is a
/// second.
///
/// The connection is opened on the first read and again whenever it
/// drops, after which the counter is read from the database: a commit made
/// while it was down is not missed (the version check on reconnect). While
/// it is down, each read asks the database, and fails when the database
/// does: a server's readiness check then answers 503.
public final class PostgresChangeWatch: CatalogChangeWatch {
    private let catalog: PostgresCatalog
    private let state = StateLock(State())

    private struct State {
        /// The version as last read or notified; nil while no connection
        /// listens.
        var version: Int64?
        /// A listening task is running (or connecting).
        var listening = false
        /// The listening task, cancelled when the watch goes.
        var task: Task<Void, Never>?
    }

    init(catalog: PostgresCatalog) {
        self.catalog = catalog
    }

    deinit {
        state.withLock { $0.task }?.cancel()
    }

    public func dataVersion() async throws -> Int64 {
        if let version = state.withLock({ $0.version }) { return version }
        startListening()
        return try await catalog.committedDataVersion()
    }

    public func listVersion(named name: String) async throws -> Int64? {
        try await catalog.listVersion(named: name)
    }

    /// Starts the listening task unless one runs.
    private func startListening() {
        let start = state.withLock { state -> Bool in
            guard !state.listening else { return false }
            state.listening = true
            return true
        }
        guard start else { return }
        let watch = WeakReference(self)
        let task = Task.detached { [catalog] in
            await Self.listen(catalog: catalog) { watch.value }
            watch.value?.state.withLock { state in
                state.listening = false
                state.version = nil
            }
        }
        state.withLock { $0.task = task }
    }

    /// Listens until the connection drops (or the watch goes): LISTEN
    /// first, then the counter read, so that no commit falls between them.
    private static func listen(catalog: PostgresCatalog, watch: @escaping @Sendable () -> PostgresChangeWatch?) async {
        guard let connection = try? await catalog.connectAlone() else { return }
        defer { ConnectionPool.close(connection) }
        do {
            try await connection.listen(on: "carousel_changes") { notifications in
                let version = try await PostgresCatalog.committedDataVersion(connection, logger: catalog.logger)
                watch()?.advance(to: version)
                for try await notification in notifications {
                    guard let watch = watch() else { return }
                    if let notified = Int64(notification.payload) { watch.advance(to: notified) }
                }
            }
        } catch {
            // The connection dropped: the next read asks the database and
            // starts listening again.
        }
    }

    /// Notifications arrive in commit order, each with the counter its
    /// transaction left; the greatest is the catalog's now.
    private func advance(to version: Int64) {
        state.withLock { state in state.version = max(state.version ?? version, version) }
    }
}

/// A reference that does not keep its object alive: the listening task
/// must not keep its watch (and its connection) alive once the server lets
/// the watch go.
private final class WeakReference<Object: AnyObject & Sendable>: @unchecked Sendable {
    // Written once, at init; `weak` reads are atomic.
    weak var value: Object?

    init(_ value: Object) {
        self.value = value
    }
}
