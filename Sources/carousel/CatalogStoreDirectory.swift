import MapSync
import StoreCatalog

/// A catalog store list as map sync sees it: a count, and a pin per position
/// looked up on demand — one indexed query per emitted value, never a load
/// of the whole list (a 234,908-store list costs the same as a 44-store one).
struct CatalogStoreDirectory: StoreDirectory {
    let catalog: Catalog
    let list: String
    let count: Int

    /// The list `list`; throws if the catalog has no such list.
    init(catalog: Catalog, list: String) throws {
        self.catalog = catalog
        self.list = list
        count = try catalog.count(list: list)
    }

    func pin(at index: Int) throws -> StorePin {
        let location = try catalog.location(list: list, at: index)
        return StorePin(id: location.id, latitude: location.latitude, longitude: location.longitude)
    }

    /// The whole store at `index`, for output.
    func store(at index: Int) throws -> Store {
        try catalog.store(list: list, at: index)
    }
}
