import MapSyncCatalog
import StoreCatalog

/// Follows a session's list in the catalog: tells, when asked, whether the
/// list changed since the last look (replaced, imported anew) or went
/// (deleted, renamed), and gives the new list.
///
/// A look costs a read of the shared data version; only when that moved —
/// some commit to the catalog — does it read the list's ``ListStamp`` (two
/// index seeks), and only when that changed the new list's count.
struct ListFollower: Sendable {
    enum Change {
        /// The list is as it was.
        case none
        /// The list holds other stores now.
        case changed(CatalogStoreDirectory)
        /// No list has the name any more.
        case gone
    }

    let catalog: Catalog
    let list: String
    let watch: CatalogChangeWatch
    /// The data version at the last look (nil: none could be read).
    private var version: Int64?
    /// The list's stamp at the last look.
    private var stamp: ListStamp

    /// Reads `list` as it is now: its stores, and a follower of it.
    ///
    /// The version is read first and the stamp before the stores: a commit
    /// between them makes the next look read the list again, never miss it.
    static func start(catalog: Catalog, list: String, watch: CatalogChangeWatch) throws -> (CatalogStoreDirectory, ListFollower) {
        let version = watch.number(maxAge: .zero)
        let stamp = try catalog.listStamp(list)
        let stores = try CatalogStoreDirectory(catalog: catalog, list: list)
        return (stores, ListFollower(catalog: catalog, list: list, watch: watch, version: version, stamp: stamp))
    }

    /// Whether the list changed since the last look, with a data version
    /// read no longer than `maxAge` ago. A read that fails (the catalog
    /// busy) counts as no change: the next look tries again.
    mutating func look(maxAge: Duration) -> Change {
        let now = watch.number(maxAge: maxAge)
        if let now, now == version { return .none }
        do {
            let stamp = try catalog.listStamp(list)
            version = now
            guard stamp != self.stamp else { return .none }
            let stores = try CatalogStoreDirectory(catalog: catalog, list: list)
            self.stamp = stamp
            return .changed(stores)
        } catch CatalogError.listNotFound {
            return .gone
        } catch {
            return .none
        }
    }
}
