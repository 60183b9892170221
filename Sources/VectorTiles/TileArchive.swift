import CarouselJSON
import Clustering
import Foundation

/// What an archive of a list's tiles says of itself: TileJSON's fields,
/// which MBTiles keeps in its `metadata` table and PMTiles in its header
/// and JSON metadata.
public struct TileArchiveMetadata: Sendable, Hashable {
    public var name: String
    public var zooms: ClosedRange<Int>
    /// west, south, east, north in degrees.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)
    /// The `vector_layers` array, as JSON text (``VectorTile/storesLayerJSON(zooms:properties:)``).
    public var vectorLayers: String
    public var attribution: String?

    public init(
        name: String, zooms: ClosedRange<Int>, bounds: (west: Double, south: Double, east: Double, north: Double),
        vectorLayers: String, attribution: String? = nil
    ) {
        self.name = name
        self.zooms = zooms
        self.bounds = bounds
        self.vectorLayers = vectorLayers
        self.attribution = attribution
    }

    /// The bounds' centre, at a zoom that shows a city.
    public var center: (longitude: Double, latitude: Double, zoom: Int) {
        ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, min(max(zooms.lowerBound, 10), zooms.upperBound))
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.zooms == b.zooms && a.vectorLayers == b.vectorLayers && a.attribution == b.attribution
            && a.bounds == b.bounds
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(zooms)
        hasher.combine(vectorLayers)
    }
}

/// A file of many tiles, written tile by tile: MBTiles (``MBTilesWriter``)
/// or PMTiles (``PMTilesWriter``). Tiles come zoom by zoom, each zoom's in
/// the writer's ``order(_:)``; ``finish(_:)`` completes the file.
public protocol TileArchiveWriter {
    /// The order the writer takes a zoom's tiles in.
    func order(_ tiles: [TileAddress]) -> [TileAddress]
    /// Adds one tile, its MVT bytes gzipped (both formats store them so).
    mutating func add(_ tile: TileAddress, gzipped: [UInt8]) throws
    /// Writes the metadata and closes the file.
    mutating func finish(_ metadata: TileArchiveMetadata) throws
}

extension VectorTile {
    /// TileJSON's `vector_layers` of the layer `stores`, with the fields
    /// of a cluster and a store, and the attributes `properties` adds.
    public static func storesLayerJSON(zooms: ClosedRange<Int>, properties: [String] = []) -> String {
        var fields = [
            ("id", "String: the store's id"), ("name", "String"), ("category", "String"),
            ("cluster", "Boolean: true on a cluster"), ("cluster_id", "Number: supercluster's cluster id, also the feature id"),
            ("point_count", "Number"), ("point_count_abbreviated", "String or Number"),
            ("expansion_zoom", "Number: the zoom at which the cluster splits"),
        ]
        fields += properties.map { ($0, "The store's attribute, typed as imported") }
        let text = fields.map { "\(StoreJSON.quoted($0.0)):\(StoreJSON.quoted($0.1))" }.joined(separator: ",")
        return """
            [{"id":"stores","description":"The list's stores and supercluster's clusters of them",\
            "minzoom":\(zooms.lowerBound),"maxzoom":\(zooms.upperBound),"fields":{\(text)}}]
            """
    }
}
