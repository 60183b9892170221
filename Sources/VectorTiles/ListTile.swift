import Clustering
import StoreCatalog

extension VectorTile {
    /// The tile of a list's markers (`CatalogEngine.clusterTile`): the
    /// layer `stores` (``stores(_:extent:store:)``), a store carrying its
    /// `id`, `name` and, when it has one, `category`. What
    /// `GET /lists/{name}/tiles/{z}/{x}/{y}.mvt` answers and
    /// `carousel tiles` writes.
    public static func stores(_ features: [ListTileFeature], extent: Int = 4096) -> VectorTile {
        var byPosition: [Int: Store] = [:]
        let markers = features.map { feature -> TileFeature in
            switch feature.marker {
            case .cluster(let cluster):
                return TileFeature(marker: .cluster(cluster), x: feature.x, y: feature.y)
            case .store(let index, let store):
                byPosition[index] = store
                return TileFeature(marker: .point(index), x: feature.x, y: feature.y)
            }
        }
        return Self.stores(markers, extent: extent) { position in
            let store = byPosition[position]!
            var properties = [Property("id", .string(store.id)), Property("name", .string(store.name))]
            if let category = store.category { properties.append(Property("category", .string(category))) }
            return properties
        }
    }
}
