import Clustering

extension VectorTile {
    /// The layer `stores` of a tile's markers: a cluster as `cluster: true`,
    /// `cluster_id`, `point_count`, `point_count_abbreviated` and
    /// `expansion_zoom` (supercluster's and MapLibre's names), with
    /// supercluster's cluster id as the feature id; a store with the
    /// properties `store` gives for its list position (`id`, `name`,
    /// `category`…), and that position as the feature id — an id that is
    /// the same in every tile and zoom.
    public static func stores(
        _ features: [TileFeature], extent: Int = 4096, store: (Int) -> [Property]
    ) -> VectorTile {
        var layer = Layer(name: "stores", extent: extent)
        layer.features.reserveCapacity(features.count)
        for feature in features {
            switch feature.marker {
            case .cluster(let cluster):
                var properties: [Property] = [
                    Property("cluster", .bool(true)), Property("cluster_id", .int(Int64(cluster.id))),
                    Property("point_count", .int(Int64(cluster.count))),
                    Property("point_count_abbreviated", abbreviated(cluster.count)),
                ]
                if let zoom = cluster.expansionZoom { properties.append(Property("expansion_zoom", .int(Int64(zoom)))) }
                layer.features.append(Feature(id: UInt64(cluster.id), x: feature.x, y: feature.y, properties: properties))
            case .point(let index):
                layer.features.append(Feature(id: UInt64(index), x: feature.x, y: feature.y, properties: store(index)))
            }
        }
        return VectorTile(layers: [layer])
    }

    /// supercluster's `point_count_abbreviated`, typed as supercluster
    /// types it: the count itself under 1,000, else text: 1.5k, 12k
    /// (`count >= 10000 ? round(count / 1000) + 'k' : count >= 1000 ?
    /// round(count / 100) / 10 + 'k' : count`).
    public static func abbreviated(_ count: Int) -> Value {
        if count >= 10_000 { return .string("\(Int((Double(count) / 1000 + 0.5).rounded(.down)))k") }
        if count >= 1_000 {
            let tenths = Int((Double(count) / 100 + 0.5).rounded(.down))
            return .string(tenths % 10 == 0 ? "\(tenths / 10)k" : "\(tenths / 10).\(tenths % 10)k")
        }
        return .int(Int64(count))
    }
}
