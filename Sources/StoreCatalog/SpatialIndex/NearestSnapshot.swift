import GRDB
import Geo

/// Every store of a catalog held in memory, each as the `Element` its
/// reader chose, with a k-d tree over all the stores and one per
/// list: ``Catalog/nearest(to:limit:withinMeters:list:)-jv37``'s answers,
/// the same ones, without SQLite.
///
/// Why: a server answering nearest-store requests all day spends most of
/// each one in SQLite — the search's index seeks, then a lookup per store —
/// and decoding the rows it then encodes again (BENCHMARKS.md, server).
/// Holding the stores in memory, already encoded as its answers need them,
/// leaves a tree walk and a copy. The cost is memory that grows with the
/// catalog, so ``Catalog/nearestSnapshot(maxEntries:_:)`` refuses a catalog
/// over a size its caller picks, and the server keeps SQLite for those.
///
/// A snapshot is one state of the catalog: its holder builds a new one
/// when ``Catalog/dataVersion()`` changes.
public struct NearestSnapshot<Element: Sendable>: Sendable {
    /// Each store as the snapshot's reader made it, in the catalog's own
    /// order of stores (their integer keys), which is also the order of ties.
    @usableFromInline let elements: [Element]
    @usableFromInline let locations: StoreLocations

    /// The stores held.
    public var count: Int { elements.count }

    fileprivate init(elements: [Element], locations: StoreLocations) {
        self.elements = elements
        self.locations = locations
    }

    /// The `limit` stores nearest to `origin`, of `list` or of any list,
    /// within `withinMeters` if given, nearest first, each with its
    /// haversine distance: the answer of
    /// ``Catalog/nearest(to:limit:withinMeters:list:)-jv37`` for the same state,
    /// ties included, and the same errors.
    ///
    /// Inlinable so that a caller's module specializes it for its
    /// `Element`: unspecialized, each call looked up the generic tuple's
    /// metadata at run time.
    @inlinable
    public func nearest(
        to origin: Coordinate, limit: Int = 10, withinMeters: Double? = nil, list: String? = nil
    ) throws -> [(element: Element, distanceMeters: Double)] {
        try locations.nearest(to: origin, limit: limit, withinMeters: withinMeters, list: list).map {
            (elements[$0.item], $0.distanceMeters)
        }
    }
}

extension NearestSnapshot {
    /// Whether a catalog of `entries` stores and list items together may
    /// be held under `maxEntries` (trees number their items in 32 bits).
    package static func fits(entries: Int, maxEntries: Int) -> Bool {
        entries <= min(maxEntries, Int(Int32.max))
    }

    /// Makes a snapshot from the stores in key order, then each list's
    /// store keys: how either engine reads its catalog into one.
    package struct Builder {
        private var keys: [Int64] = []
        private var elements: [Element] = []
        private var latitudes: [Double] = []
        private var longitudes: [Double] = []
        private var points: [SIMD3<Double>] = []
        private var lists: [String: NearestTree] = [:]
        private var everyStore: NearestTree?

        package init() {}

        /// Adds `store`, whose key is greater than every key added before.
        package mutating func add(_ store: Store, key: Int64, element: Element) throws {
            guard keys.last.map({ $0 < key }) ?? true, keys.count < Int32.max else {
                throw CatalogError.database("the stores were not read in key order")
            }
            keys.append(key)
            elements.append(element)
            latitudes.append(store.latitude)
            longitudes.append(store.longitude)
            points.append(NearestTree.point(latitude: store.latitude, longitude: store.longitude))
        }

        /// Adds list `name`, holding the stores of `storeKeys` (every one
        /// added before).
        package mutating func addList(_ name: String, storeKeys: [Int64]) throws {
            var items: [Int32] = []
            items.reserveCapacity(storeKeys.count)
            for key in storeKeys {
                // Keys are sorted: a store's item is found by bisection.
                var low = 0
                var high = keys.count
                while low < high {
                    let middle = (low + high) / 2
                    if keys[middle] < key { low = middle + 1 } else { high = middle }
                }
                guard low < keys.count, keys[low] == key else {
                    throw CatalogError.database("list '\(name)' holds a store the catalog does not")
                }
                items.append(Int32(low))
            }
            lists[name] = NearestTree(points: items.map { points[Int($0)] }, items: items)
        }

        package func build() -> NearestSnapshot {
            NearestSnapshot(
                elements: elements,
                locations: StoreLocations(
                    latitudes: latitudes, longitudes: longitudes,
                    everyStore: NearestTree(points: points, items: (0..<Int32(points.count)).map { $0 }), lists: lists))
        }
    }
}

/// Where each store of a ``NearestSnapshot`` is, and the trees over them:
/// its search, which does not depend on the snapshot's `Element`.
@usableFromInline
struct StoreLocations: Sendable {
    let latitudes: [Double]
    let longitudes: [Double]
    let everyStore: NearestTree
    let lists: [String: NearestTree]

    /// The nearest stores' items (their indices) and distances.
    @usableFromInline
    func nearest(
        to origin: Coordinate, limit: Int, withinMeters: Double?, list: String?
    ) throws -> [(item: Int, distanceMeters: Double)] {
        let maxRadius = try Catalog.checkNearest(origin, limit: limit, withinMeters: withinMeters)
        let tree: NearestTree
        if let list {
            guard let listTree = lists[list] else { throw CatalogError.listNotFound(list) }
            tree = listTree
        } else {
            tree = everyStore
        }
        let meter = DistanceFrom(origin)
        let candidates = tree.candidates(
            near: NearestTree.point(latitude: origin.latitude, longitude: origin.longitude),
            limit: limit, maxChord: withinMeters.flatMap(NearestTree.chord(meters:)))
        // Measured as the SQLite search measures, and ordered as it orders
        // (the store's key being here its index).
        var measured: [(item: Int, distanceMeters: Double)] = []
        measured.reserveCapacity(candidates.count)
        for candidate in candidates {
            let item = Int(candidate)
            let distance = meter.meters(toLatitude: latitudes[item], longitude: longitudes[item])
            if distance <= maxRadius { measured.append((item, distance)) }
        }
        measured.keepNearest(limit) { ($0.distanceMeters, $0.item) }
        return measured
    }
}

extension Catalog {
    /// Every store and list of the catalog in memory, as one
    /// ``NearestSnapshot`` of one state, each store made into an `Element`
    /// by `element`; nil when the catalog holds more than `maxEntries`
    /// stores and list items together (each costs the snapshot about 60
    /// bytes, and each store its element besides), or more than 2³¹ − 1.
    public func nearestSnapshot<Element: Sendable>(
        maxEntries: Int, _ element: (Store) throws -> Element
    ) throws -> NearestSnapshot<Element>? {
        // Every store is read once, and held in the snapshot: not mapped besides.
        try read { db in try CatalogDatabase.readingUnmapped(db) { try readSnapshot(maxEntries: maxEntries, element, db) } }
    }

    private func readSnapshot<Element: Sendable>(
        maxEntries: Int, _ element: (Store) throws -> Element, _ db: Database
    ) throws -> NearestSnapshot<Element>? {
        guard
            let entries = try firstRow(
                db, "SELECT (SELECT count(*) FROM stores) + (SELECT count(*) FROM list_items)", { _ in }, { $0.int(0) }),
            NearestSnapshot<Element>.fits(entries: entries, maxEntries: maxEntries)
        else { return nil }
        var builder = NearestSnapshot<Element>.Builder()
        _ = try rows(db, "SELECT \(Store.columns), s.key FROM stores AS s ORDER BY s.key", { _ in }) { row in
            let store = try Store(row)
            try builder.add(store, key: row.int64(8), element: try element(store))
        }
        for (listKey, name) in try rows(db, "SELECT key, name FROM lists", { _ in }, { ($0.int64(0), $0.text(1) ?? "") }) {
            var items: [Int64] = []
            _ = try rows(db, "SELECT store FROM list_items WHERE list = ?", { $0.bind(listKey, at: 1) }) { items.append($0.int64(0)) }
            try builder.addList(name, storeKeys: items)
        }
        return builder.build()
    }

    /// A number that changes whenever another connection — another
    /// `Catalog`, in this process or another — commits a change to the
    /// catalog's file (SQLite's `PRAGMA data_version`): what tells a
    /// holder of a ``NearestSnapshot`` that it is out of date. Only ever
    /// compare values from one `Catalog`.
    public func dataVersion() throws -> Int64 {
        try read { db in try firstRow(db, "PRAGMA data_version", { _ in }, { $0.int64(0) }) ?? 0 }
    }
}
