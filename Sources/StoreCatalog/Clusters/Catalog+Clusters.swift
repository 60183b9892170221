import Clustering
import GRDB
import Geo

extension Catalog {
    /// The markers of `list` in `box` at `zoom`, as mapbox/supercluster
    /// 8.0.1 clusters the list's stores in carousel order (`options`,
    /// supercluster's defaults unless given), each cluster with its
    /// expansion zoom; with `selected` (a list position), that store is
    /// never hidden in a cluster (see `ClusterIndex/markers(in:zoom:selected:)`).
    ///
    /// The list's cluster index is built on its first query and stored;
    /// any change to the list drops it (the schema's triggers), and the
    /// next query builds it again. A catalog opened read-only cannot store
    /// it: each query without a stored index builds it in memory.
    public func clusters(
        list: String, zoom: Double, box: BoundingBox, selected: Int? = nil, options: ClusterOptions = ClusterOptions()
    ) throws -> [ListMarker] {
        try withClusterIndex(list: list, options: options) { index, listKey, db in
            let markers = try ListClusterQueries.markers(index, list: list, zoom: zoom, box: box, selected: selected)
            return try markers.map { marker in
                switch marker {
                case let .cluster(cluster): .cluster(cluster)
                case let .point(position): .store(index: position, store: try store(listKey, at: position, db))
                }
            }
        }
    }

    /// The markers of map tile `zoom`/`x`/`y` of `list`, as supercluster's
    /// `getTile` gives them with MVT's extent of 4096, in tile units; with
    /// `selected` (a list position), that store is never hidden in a
    /// cluster. Throws for a tile outside its zoom.
    ///
    /// With a `filter`, only the matching stores are clustered (an index of
    /// them, built on first use and kept while the catalog is unchanged);
    /// `selected` is then drawn only if it matches.
    public func clusterTile(
        list: String, zoom: Int, x: Int, y: Int, selected: Int? = nil, filter: StoreFilter = StoreFilter(),
        options: ClusterOptions = ClusterOptions()
    ) throws -> [ListTileFeature] {
        try clusterTiles(list: list, tiles: [TileAddress(z: zoom, x: x, y: y)], selected: selected, filter: filter, options: options)[0]
    }

    /// `clusterTile(list:zoom:x:y:selected:filter:options:)` of each of
    /// `tiles`, in one read of the catalog: an export asks for hundreds
    /// at a time, and one transaction per tile was most of its time.
    public func clusterTiles(
        list: String, tiles: [TileAddress], selected: Int? = nil, filter: StoreFilter = StoreFilter(),
        options: ClusterOptions = ClusterOptions()
    ) throws -> [[ListTileFeature]] {
        guard !filter.isEmpty else {
            return try withClusterIndex(list: list, options: options) { index, listKey, db in
                try tiles.map { tile in
                    let features = try ListClusterQueries.tile(index, list: list, zoom: tile.z, x: tile.x, y: tile.y, selected: selected)
                    return try placed(features, listKey: listKey, tile, db)
                }
            }
        }
        try filter.validate()
        let filtered = try filteredClusterIndex(list: list, filter: filter, options: options)
        return try read { db in
            let listKey = try listKey(list, db)
            return try tiles.map { tile in
                try placed(filtered.tile(list: list, zoom: tile.z, x: tile.x, y: tile.y, selected: selected), listKey: listKey, tile, db)
            }
        }
    }

    /// The tiles of zoom `z` of `list` (of its stores matching `filter`)
    /// that may hold a marker, in address order: what an export of the
    /// list's tiles walks.
    public func clusterTileAddresses(
        list: String, zoom z: Int, filter: StoreFilter = StoreFilter(), options: ClusterOptions = ClusterOptions()
    ) throws -> [TileAddress] {
        guard filter.isEmpty else {
            try filter.validate()
            return try ListClusterQueries.occupiedTiles(filteredClusterIndex(list: list, filter: filter, options: options).index, zoom: z)
        }
        return try withClusterIndex(list: list, options: options) { index, _, _ in try ListClusterQueries.occupiedTiles(index, zoom: z) }
    }

    /// `features` with their stores read, placed where the stores are.
    private func placed(_ features: [TileFeature], listKey: Int64, _ tile: TileAddress, _ db: Database) throws -> [ListTileFeature] {
        var stores: [Int: Store] = [:]
        for case .point(let position) in features.map(\.marker) { stores[position] = try store(listKey, at: position, db) }
        return ListClusterQueries.placed(features, stores: stores, zoom: tile.z, x: tile.x, y: tile.y)
    }

    /// The index of `list`'s stores matching `filter`: the search's
    /// candidates over the list's search snapshot (kept, as searches keep
    /// it), attribute filters tried on each candidate's store.
    private func filteredClusterIndex(list: String, filter: StoreFilter, options: ClusterOptions) throws -> FilteredClusterIndex {
        let version = try searchVersion()
        let key = "\(list)\u{1F}\(version.data).\(version.changes)\u{1F}\(filter)\u{1F}\(StoredClusterIndex.describe(options))"
        if let kept = filteredClusterIndexes.index(key) { return kept }
        let snapshot = try searchSnapshot(list: list)
        let search = filter.search(list: list)
        var matching: [(position: Int, coordinate: Coordinate)] = []
        for candidate in SearchRun(search, over: snapshot).ranked {
            if !filter.attributes.isEmpty {
                let attributes = try store(list: list, at: candidate.position).attributes
                guard filter.attributes.allSatisfy({ $0.matches(attributes[$0.name]) }) else { continue }
            }
            matching.append((candidate.position, snapshot.coordinate(at: candidate.position)))
        }
        let index = try FilteredClusterIndex.build(candidates: matching, options: options)
        filteredClusterIndexes.keep(index, key)
        return index
    }

    /// The stores of cluster `id` of `list` (supercluster's `getLeaves`):
    /// `limit` of them after skipping `offset`, with their list positions.
    public func clusterLeaves(
        list: String, cluster id: Int, limit: Int = 10, offset: Int = 0, options: ClusterOptions = ClusterOptions()
    ) throws -> [ListMarker] {
        try withClusterIndex(list: list, options: options) { index, listKey, db in
            try ListClusterQueries.leaves(index, cluster: id, limit: limit, offset: offset).map {
                .store(index: $0, store: try store(listKey, at: $0, db))
            }
        }
    }

    /// The lowest zoom from which the store at `position` of `list` is in no
    /// cluster: from there on, a clusters query shows it on its own.
    public func unclusterZoom(list: String, position: Int, options: ClusterOptions = ClusterOptions()) throws -> Int {
        try withClusterIndex(list: list, options: options) { index, _, _ in
            try ListClusterQueries.unclusterZoom(index, list: list, position: position)
        }
    }

    /// Runs `body` on `list`'s stored index, building and storing it first
    /// when it is missing or was built with other options (in memory only,
    /// when the catalog is read-only).
    private func withClusterIndex<T>(
        list: String, options: ClusterOptions, _ body: (ListClusterIndex, Int64, Database) throws -> T
    ) throws -> T {
        let description = StoredClusterIndex.describe(options)
        if let answer = try read({ db -> T? in
            let listKey = try listKey(list, db)
            if let points = try storedIndexPoints(listKey, description, db) {
                return try body(.stored(StoredClusterIndex(list: listKey, pointCount: points, options: options, db)), listKey, db)
            }
            guard isReadOnly else { return nil }
            return try body(.built(try buildClusterIndex(listKey, options, db)), listKey, db)
        }) {
            return answer
        }
        return try write { db in
            let listKey = try listKey(list, db)
            let points: Int
            if let stored = try storedIndexPoints(listKey, description, db) {
                points = stored  // another process built it meanwhile
            } else {
                let index = try buildClusterIndex(listKey, options, db)
                try StoredClusterIndex.store(index, list: listKey, db)
                points = index.pointCount
            }
            return try body(.stored(StoredClusterIndex(list: listKey, pointCount: points, options: options, db)), listKey, db)
        }
    }

    /// `list`'s cluster hierarchy with its expansion zooms, built from its
    /// stores in carousel order.
    private func buildClusterIndex(_ listKey: Int64, _ options: ClusterOptions, _ db: Database) throws -> ClusterIndex {
        let places = try rows(
            db,
            """
            SELECT s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
            WHERE i.list = ? ORDER BY i.position
            """, { $0.bind(listKey, at: 1) }
        ) { Coordinate(latitude: $0.double(0), longitude: $0.double(1)) }
        return try ListClusterQueries.build(points: places, options: options)
    }

    /// The store count of `list`'s stored index, nil when there is none
    /// of this layout and these options, or when the list's count is no
    /// longer the index's (an item was added: no trigger watches inserts).
    private func storedIndexPoints(_ list: Int64, _ options: String, _ db: Database) throws -> Int? {
        try firstRow(
            db,
            """
            SELECT points FROM cluster_indexes
            WHERE list = ?1 AND format = ?2 AND options = ?3
              AND points = (SELECT coalesce(max(position) + 1, 0) FROM list_items WHERE list = ?1)
            """,
            {
                $0.bind(list, at: 1)
                $0.bind(Int64(StoredClusterIndex.format), at: 2)
                $0.bind(options, at: 3)
            }
        ) { $0.int(0) }
    }

    /// Built once, as the statement cache is keyed by the text: it runs per
    /// single-store marker of an answer.
    private static let storeAtListPosition = """
        SELECT \(Store.columns) FROM list_items AS i JOIN stores AS s ON s.key = i.store
        WHERE i.list = ? AND i.position = ?
        """

    private func store(_ list: Int64, at position: Int, _ db: Database) throws -> Store {
        guard
            let store = try firstRow(
                db, Self.storeAtListPosition,
                {
                    $0.bind(list, at: 1)
                    $0.bind(Int64(position), at: 2)
                }, Store.init)
        else { throw CatalogError.database("list position \(position) has no store") }
        return store
    }
}
