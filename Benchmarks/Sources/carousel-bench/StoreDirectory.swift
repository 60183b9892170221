import StoreCatalog

/// A store list in carousel order, in memory: the store lookup both focus
/// pipelines call, the same function for both, and only for the indices they
/// emit.
struct StoreDirectory: Sendable {
    /// What the map needs of a store: its id for the marker, its coordinate
    /// for the camera (seed 002: latitude = store.y, longitude = store.x).
    struct Entry: Sendable, Hashable {
        var id: String
        var latitude: Double
        var longitude: Double
    }

    private let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    var count: Int { entries.count }

    /// The store at a list position; the position must be in `0..<count`.
    func entry(at position: Int) -> Entry {
        entries[position]
    }

    /// The stores of `list` in `catalog`, in carousel order.
    static func loading(list: String, from catalog: Catalog) throws -> StoreDirectory {
        let entries = try catalog.stores(list: list).map { store in
            Entry(id: store.id, latitude: store.latitude, longitude: store.longitude)
        }
        guard !entries.isEmpty else { throw BenchError("the list \(list) is empty: nothing to benchmark with") }
        return StoreDirectory(entries: entries)
    }
}
