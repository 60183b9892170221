import CatalogServing
import Clustering
import Geo
import PostgresNIO
import StoreCatalog
import WorkLanes

/// Clusters on PostgreSQL: supercluster's hierarchy over the list's points
/// in list order, answered by StoreCatalog's `ListClusterQueries`, so the
/// markers, leaves and zooms are the SQLite catalog's.
///
/// A list's index is built once per list version (1.14 s and 143 MiB for
/// the 234,908 GeoNames places), by one node under an advisory lock, and
/// stored whole in PostgreSQL (migration 0005); every other node, and
/// every later CLI command, reads it instead. Each catalog then keeps the
/// indexes it read (`maxHeldClusterIndexes`), so a server's queries of
/// an unchanged list read nothing but the list's version.
extension PostgresCatalog {
    public func clusters(
        list: String, zoom: Double, box: BoundingBox, selected: Int? = nil, options: ClusterOptions = ClusterOptions()
    ) async throws -> [ListMarker] {
        try await withClusterIndex(list: list, options: options) { index, key, connection in
            let markers = try ListClusterQueries.markers(index, list: list, zoom: zoom, box: box, selected: selected)
            return try await markersWithStores(markers.map { ($0.cluster, $0.pointIndex) }, list: list, key: key, connection)
        }
    }

    public func clusterTile(
        list: String, zoom: Int, x: Int, y: Int, selected: Int? = nil, filter: StoreFilter = StoreFilter(),
        options: ClusterOptions = ClusterOptions()
    ) async throws -> [ListTileFeature] {
        try await clusterTiles(list: list, tiles: [TileAddress(z: zoom, x: x, y: y)], selected: selected, filter: filter, options: options)[0]
    }

    public func clusterTiles(
        list: String, tiles: [TileAddress], selected: Int? = nil, filter: StoreFilter = StoreFilter(),
        options: ClusterOptions = ClusterOptions()
    ) async throws -> [[ListTileFeature]] {
        // Each tile's markers, then the stores of its points, on one connection.
        func answers(_ key: Int64, _ connection: PostgresConnection, _ markers: (TileAddress) throws -> [TileFeature]) async throws
            -> [[ListTileFeature]]
        {
            var answers: [[ListTileFeature]] = []
            for tile in tiles { answers.append(try await placed(try markers(tile), list: list, key: key, tile, connection)) }
            return answers
        }
        guard !filter.isEmpty else {
            return try await withClusterIndex(list: list, options: options) { index, key, connection in
                try await answers(key, connection) { tile in
                    try ListClusterQueries.tile(index, list: list, zoom: tile.z, x: tile.x, y: tile.y, selected: selected)
                }
            }
        }
        try filter.validate()
        return try await withFilteredClusterIndex(list: list, filter: filter, options: options) { filtered, key, connection in
            try await answers(key, connection) { tile in try filtered.tile(list: list, zoom: tile.z, x: tile.x, y: tile.y, selected: selected) }
        }
    }

    public func clusterTileAddresses(
        list: String, zoom: Int, filter: StoreFilter = StoreFilter(), options: ClusterOptions = ClusterOptions()
    ) async throws -> [TileAddress] {
        guard filter.isEmpty else {
            try filter.validate()
            return try await withFilteredClusterIndex(list: list, filter: filter, options: options) { filtered, _, _ in
                try ListClusterQueries.occupiedTiles(filtered.index, zoom: zoom)
            }
        }
        return try await withClusterIndex(list: list, options: options) { index, _, _ in
            try ListClusterQueries.occupiedTiles(index, zoom: zoom)
        }
    }

    /// Runs `body` with the index of `list`'s stores matching `filter`
    /// (held, or built from the list's search snapshot: the search's
    /// candidates, attribute filters tried on each candidate's store).
    private func withFilteredClusterIndex<T: Sendable>(
        list: String, filter: StoreFilter, options: ClusterOptions,
        _ body: (FilteredClusterIndex, Int64, PostgresConnection) async throws -> T
    ) async throws -> T {
        try Self.refuseNULName(list)
        return try await withConnection { connection in
            let (key, version, zone) = try await searchedList(list, connection)
            let held = "\(key)\u{1F}\(version)\u{1F}\(filter)\u{1F}\(options.storedDescription)"
            if let kept = filteredClusterIndexes.index(held) { return try await body(kept, key, connection) }
            let snapshot = try await searchSnapshot(key: key, version: version, zone: zone, connection)
            let candidates = try await WorkLane.bulk.run { SearchRun(filter.search(list: list), over: snapshot).ranked }
            var matching: [(position: Int, coordinate: Coordinate)] = []
            if filter.attributes.isEmpty {
                matching = candidates.map { ($0.position, snapshot.coordinate(at: $0.position)) }
            } else {
                try await forEachStore(list: list, key: key, at: candidates.map { Int64($0.position) }, connection) { position, store in
                    if filter.attributes.allSatisfy({ $0.matches(store.attributes[$0.name]) }) {
                        matching.append((position, store.coordinate))
                    }
                }
                matching.sort { $0.position < $1.position }
            }
            let filtered = try await WorkLane.bulk.run { [matching] in try FilteredClusterIndex.build(candidates: matching, options: options) }
            filteredClusterIndexes.keep(filtered, held)
            return try await body(filtered, key, connection)
        }
    }

    /// `features` with their stores read, placed where the stores are.
    private func placed(_ features: [TileFeature], list: String, key: Int64, _ tile: TileAddress, _ connection: PostgresConnection)
        async throws -> [ListTileFeature]
    {
        var stores: [Int: Store] = [:]
        for marker in try await markersWithStores(features.map { ($0.marker.cluster, $0.marker.pointIndex) }, list: list, key: key, connection) {
            if case .store(let position, let store) = marker { stores[position] = store }
        }
        return ListClusterQueries.placed(features, stores: stores, zoom: tile.z, x: tile.x, y: tile.y)
    }

    public func clusterLeaves(
        list: String, cluster id: Int, limit: Int = 10, offset: Int = 0, options: ClusterOptions = ClusterOptions()
    ) async throws -> [ListMarker] {
        try await withClusterIndex(list: list, options: options) { index, key, connection in
            let positions = try ListClusterQueries.leaves(index, cluster: id, limit: limit, offset: offset)
            return try await markersWithStores(positions.map { (nil, $0) }, list: list, key: key, connection)
        }
    }

    public func unclusterZoom(list: String, position: Int, options: ClusterOptions = ClusterOptions()) async throws -> Int {
        try await withClusterIndex(list: list, options: options) { index, _, _ in
            try ListClusterQueries.unclusterZoom(index, list: list, position: position)
        }
    }

    /// Cluster indexes a catalog holds in memory at most: a server's
    /// busiest lists (each some 50 MiB at 234,908 stores).
    static let maxHeldClusterIndexes = 4

    /// The advisory lock class of index builds (its second key is the
    /// list's): any constant of our own, 'clus'.
    static let clusterLockClass: Int32 = 0x636c_7573

    /// Runs `body` with the index of `list` (held, stored, or built and
    /// stored), its key and a connection.
    private func withClusterIndex<T: Sendable>(
        list: String, options: ClusterOptions, _ body: (ClusterIndex, Int64, PostgresConnection) async throws -> T
    ) async throws -> T {
        try Self.refuseNULName(list)
        return try await withConnection { connection in
            guard
                let (key, version) = try await connection.query(
                    "SELECT key, version FROM lists WHERE name = \(list)", logger: logger
                ).collect((Int64, Int64).self).first
            else { throw CatalogError.listNotFound(list) }
            let held = "\(key) \(version) \(options.storedDescription)"
            if let index = heldClusterIndexes.withLock({ $0[held] }) { return try await body(index, key, connection) }
            let index = try await storedClusterIndex(key: key, version: version, options: options, connection)
            heldClusterIndexes.withLock { indexes in
                if indexes.count >= Self.maxHeldClusterIndexes { indexes.removeAll() }
                indexes[held] = index
            }
            return try await body(index, key, connection)
        }
    }

    /// The stored index of the list of `key` at `version`; built and
    /// stored first if there is none, under the list's advisory lock, so
    /// that nodes asking at once build it once (the others wait, then read).
    private func storedClusterIndex(
        key: Int64, version: Int64, options: ClusterOptions, _ connection: PostgresConnection
    ) async throws -> ClusterIndex {
        let description = options.storedDescription
        func stored(_ connection: PostgresConnection) async throws -> ClusterIndex? {
            let rows = try await connection.query(
                """
                SELECT bytes FROM cluster_indexes WHERE list = \(key) AND version = \(version) AND options = \(description)
                """, logger: logger
            ).collect(ByteBuffer.self)
            guard let bytes = rows.first else { return nil }
            // Reading an index of a large list is tens of milliseconds of
            // work: the bulk lane's, not the event loop's.
            return try await WorkLane.bulk.run { try bytes.withUnsafeReadableBytes { raw in try ClusterIndex(bytes: raw, options: options) } }
        }
        if let index = try await stored(connection) { return index }
        return try await connection.withTransaction(logger: logger) { connection in
            _ = try await connection.query(
                "SELECT pg_advisory_xact_lock(\(Self.clusterLockClass), \(Int32(truncatingIfNeeded: key)))", logger: logger)
            if let index = try await stored(connection) { return index }
            var points: [Coordinate] = []
            let rows = try await connection.query(
                """
                SELECT s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) ORDER BY i.position
                """, logger: logger)
            for try await (latitude, longitude) in rows.decode((Double, Double).self) {
                points.append(Coordinate(latitude: latitude, longitude: longitude))
            }
            // Half a second for 234,908 places: on the bulk lane.
            let index = try await WorkLane.bulk.run { try ListClusterQueries.build(points: points, options: options) }
            _ = try await connection.query(
                """
                INSERT INTO cluster_indexes (list, version, options, bytes)
                VALUES (\(key), \(version), \(description), \(ByteBuffer(bytes: index.bytes())))
                ON CONFLICT DO NOTHING
                """, logger: logger)
            // Indexes of lists that are gone, or of their former versions.
            _ = try await connection.query(
                """
                DELETE FROM cluster_indexes AS c
                WHERE NOT EXISTS (SELECT 1 FROM lists AS l WHERE l.key = c.list AND l.version = c.version)
                """, logger: logger)
            return index
        }
    }

    /// Each marker as a cluster, or as the store at its list position (all
    /// of them read in one statement).
    private func markersWithStores(
        _ markers: [(cluster: Cluster?, position: Int?)], list: String, key: Int64, _ connection: PostgresConnection
    ) async throws -> [ListMarker] {
        var stores: [Int: Store] = [:]
        try await forEachStore(list: list, key: key, at: markers.compactMap { $0.position.map(Int64.init) }, connection) {
            position, store in stores[position] = store
        }
        return markers.map { marker in
            if let cluster = marker.cluster { return .cluster(cluster) }
            let position = marker.position!
            return .store(index: position, store: stores[position]!)
        }
    }
}
