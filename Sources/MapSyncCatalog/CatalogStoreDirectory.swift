import MapSync
import StoreCatalog

/// A catalog store list as map sync sees it: a count, and a pin per position
/// looked up on demand — one indexed query per emitted value, never a load
/// of the whole list (a 234,908-store list costs the same as a 44-store one).
///
/// It lives in a module of its own so that MapSync stays free of SQLite: an
/// app that keeps its stores elsewhere links MapSync alone.
///
/// ```swift
/// let catalog = try Catalog(path: url.path)
/// let stores = try CatalogStoreDirectory(catalog: catalog, list: "seoul")
/// try viewModel.load(stores, layout: layout.with(dataCount: stores.count))
/// ```
public struct CatalogStoreDirectory: StoreDirectory {
    /// The catalog read.
    public let catalog: Catalog
    /// The list's name.
    public let list: String
    /// The number of stores in the list when this directory was made.
    public let count: Int

    /// The list `list`; throws `CatalogError.listNotFound` if the catalog
    /// has no such list.
    public init(catalog: Catalog, list: String) throws {
        self.catalog = catalog
        self.list = list
        count = try catalog.count(list: list)
    }

    /// The pin of the store at `index`: one indexed query.
    public func pin(at index: Int) throws -> StorePin {
        let location = try catalog.location(list: list, at: index)
        return StorePin(id: location.id, latitude: location.latitude, longitude: location.longitude)
    }

    /// The position of store `id` in the list, or nil: one query over the
    /// list's items, for `MapSyncViewModel.reload(_:layout:keepingFocusOn:)`.
    public func index(ofStore id: String) throws -> Int? {
        try catalog.position(ofStore: id, inList: list)
    }

    /// The whole store at `index`, for output.
    public func store(at index: Int) throws -> Store {
        try catalog.store(list: list, at: index)
    }
}
