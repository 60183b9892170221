import Clustering
import StoreCatalog

extension VectorTile {
    /// Attributes a tile may carry per store at most (`properties=`): a
    /// tile's size grows with each, and MapLibre styles read a few.
    public static let maximumProperties = 16

    /// The tile of a list's markers (`CatalogEngine.clusterTile`): the
    /// layer `stores` (``stores(_:extent:store:)``), a store carrying its
    /// `id`, `name` and, when it has one, `category`, then each attribute
    /// `properties` names that the store has (``value(of:)``). What
    /// `GET /lists/{name}/tiles/{z}/{x}/{y}.mvt` answers and
    /// `carousel tiles` writes.
    public static func stores(_ features: [ListTileFeature], properties: [String] = [], extent: Int = 4096) -> VectorTile {
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
            var fields = [Property("id", .string(store.id)), Property("name", .string(store.name))]
            if let category = store.category { fields.append(Property("category", .string(category))) }
            for name in properties {
                if let value = property(name, of: store) { fields.append(Property(name, value)) }
            }
            return fields
        }
    }

    /// The value of `properties=`'s `name` for `store`: its `address` or
    /// `phone`, else the attribute of that name; nil when it has none.
    static func property(_ name: String, of store: Store) -> Value? {
        switch name {
        case "address": store.address.map(Value.string)
        case "phone": store.phone.map(Value.string)
        default: store.attributes[name].flatMap(value(of:))
        }
    }

    /// An attribute as an MVT value, its type kept where MVT has one: text
    /// as a string, a whole number that fits 64 bits as an integer, any
    /// other number as a double, a boolean as a boolean; an array or
    /// object as its compact JSON text (MVT values are scalars, spec 2.1
    /// §4.4). Null is no value: the property is left out, as MapLibre
    /// reads a missing property.
    public static func value(of attribute: AttributeValue) -> Value? {
        switch attribute {
        case .string(let text): return .string(text)
        case .number(let number):
            if number.isInteger, let whole = Int64(number.text) { return .int(whole) }
            return .double(number.doubleValue)
        case .bool(let flag): return .bool(flag)
        case .null: return nil
        case .array, .object: return .string(attribute.description)
        }
    }
}

extension VectorTile {
    /// Names a store's own fields and a cluster's take: `properties=`
    /// cannot name them, or a feature would carry a key twice.
    public static let reservedProperties: Set<String> = [
        "id", "name", "category", "cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom",
    ]

    /// Why `names` cannot be a tile's `properties`, in one line; nil when
    /// they can: at most ``maximumProperties``, none empty, reserved or
    /// given twice.
    public static func problem(withProperties names: [String]) -> String? {
        guard names.count <= maximumProperties else {
            return "a tile carries at most \(maximumProperties) properties (got \(names.count))"
        }
        var seen: Set<String> = []
        for name in names {
            if name.isEmpty { return "a property name is empty" }
            if reservedProperties.contains(name) { return "'\(name)' is a field every tile has, not an attribute to add" }
            if !seen.insert(name).inserted { return "'\(name)' is named twice" }
        }
        return nil
    }
}
