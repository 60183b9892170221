import CatalogServing
import MapSyncCatalog
import StoreCatalog

/// Follows a session's list in the catalog: tells, when asked, whether the
/// list changed since the last look (replaced, imported anew) or went
/// (deleted, renamed), and gives the new list.
///
/// A look costs a read of the shared data version; only when that moved —
/// some commit to the catalog, by any process or node — does it read the
/// list's version (one index seek), and only when that changed the new
/// list's pins (shared by every session on it, ``SharedLists``).
struct ListFollower: Sendable {
    enum Change {
        /// The list is as it was.
        case none
        /// The list holds other stores now.
        case changed(CatalogStoreDirectory)
        /// No list has the name any more.
        case gone
    }

    let engine: any ServingCatalog
    let list: String
    let shared: SharedDataVersion
    let lists: SharedLists
    /// The data version at the last look (nil: none could be read).
    private var version: Int64?
    /// The list's version at the last look.
    private var listVersion: Int64?

    /// Reads `list` as it is now: its stores, and a follower of it.
    ///
    /// The data version is read first and the list's before the stores: a
    /// commit between them makes the next look read the list again, never
    /// miss it. ``CatalogError/listNotFound(_:)`` when there is no such list.
    static func start(engine: any ServingCatalog, list: String, shared: SharedDataVersion, lists: SharedLists) async throws -> (
        CatalogStoreDirectory, ListFollower
    ) {
        let version = await shared.number(maxAge: .zero)
        guard let listVersion = try await engine.listVersion(named: list) else { throw CatalogError.listNotFound(list) }
        let stores = try await lists.directory(list: list, version: listVersion)
        return (
            stores,
            ListFollower(engine: engine, list: list, shared: shared, lists: lists, version: version, listVersion: listVersion)
        )
    }

    /// Whether the list changed since the last look, with a data version
    /// read no longer than `maxAge` ago. A read that fails (the catalog
    /// busy, the database away) counts as no change: the next look tries
    /// again.
    mutating func look(maxAge: Duration) async -> Change {
        let now = await shared.number(maxAge: maxAge)
        if let now, now == version { return .none }
        do {
            // From the engine rather than the watch: a catalog in memory
            // has no watch, and its list is read at every look.
            guard let listVersion = try await engine.listVersion(named: list) else { return .gone }
            version = now
            guard listVersion != self.listVersion else { return .none }
            let stores = try await lists.directory(list: list, version: listVersion)
            self.listVersion = listVersion
            return .changed(stores)
        } catch CatalogError.listNotFound {
            return .gone
        } catch {
            return .none
        }
    }
}
