import MapSync
import StoreCatalog

/// A catalog list as the view model sees it: its count when opened, and a
/// pin per position looked up on demand (one indexed query per emitted
/// value, never a load of the whole list).
struct ListStores: StoreDirectory {
    let catalog: Catalog
    let list: String
    let count: Int

    init(catalog: Catalog, list: String) throws {
        self.catalog = catalog
        self.list = list
        count = try catalog.count(list: list)
    }

    func pin(at index: Int) throws -> StorePin {
        let location = try catalog.location(list: list, at: index)
        return StorePin(id: location.id, latitude: location.latitude, longitude: location.longitude)
    }
}
