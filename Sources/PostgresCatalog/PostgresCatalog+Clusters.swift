import Clustering
import Geo
import PostgresNIO
import StoreCatalog

/// Clusters on PostgreSQL: supercluster's hierarchy over the list's points
/// in list order, answered by StoreCatalog's `ListClusterQueries`, so the
/// markers, leaves and zooms are the SQLite catalog's.
///
/// The index is built for each query from the list's coordinates, as the
/// SQLite catalog does for a catalog it cannot write: 1.14 s and 143 MiB
/// for the 234,908 GeoNames places, where SQLite answers from its stored
/// index in 0.01 s. Building it once per list version and storing it in
/// PostgreSQL for every node is not done yet (docs/postgresql.md).
extension PostgresCatalog {
    public func clusters(
        list: String, zoom: Double, box: BoundingBox, selected: Int? = nil, options: ClusterOptions = ClusterOptions()
    ) async throws -> [ListMarker] {
        try await withClusterIndex(list: list, options: options) { index, key, connection in
            let markers = try ListClusterQueries.markers(index, list: list, zoom: zoom, box: box, selected: selected)
            return try await markersWithStores(markers.map { ($0.cluster, $0.pointIndex) }, list: list, key: key, connection)
        }
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

    /// Runs `body` with the index of `list` (built from its coordinates in
    /// list order), its key and the connection.
    private func withClusterIndex<T: Sendable>(
        list: String, options: ClusterOptions, _ body: (ClusterIndex, Int64, PostgresConnection) async throws -> T
    ) async throws -> T {
        try await withConnection { connection in
            let key = try await listKey(list, connection)
            var points: [Coordinate] = []
            let rows = try await connection.query(
                """
                SELECT s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
                WHERE i.list = \(key) ORDER BY i.position
                """, logger: logger)
            for try await (latitude, longitude) in rows.decode((Double, Double).self) {
                points.append(Coordinate(latitude: latitude, longitude: longitude))
            }
            return try await body(try ListClusterQueries.build(points: points, options: options), key, connection)
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
