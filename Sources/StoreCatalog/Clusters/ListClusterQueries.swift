import Clustering
import Geo

/// The clusters queries over one list's index, answered with list
/// positions; each catalog then reads the stores at those positions. One
/// piece of code for both engines, so that their checks, errors and
/// answers cannot drift apart.
package enum ListClusterQueries {
    /// The index of a list whose points, in list order, are `points`:
    /// supercluster's hierarchy, with the zoom from which each point is in
    /// no cluster.
    package static func build(points: [Coordinate], options: ClusterOptions) throws -> ClusterIndex {
        try ClusterIndex(points: points, options: options).withExpansionZooms()
    }

    /// The markers inside `box` at `zoom`; `selected` (a list position) is
    /// never hidden in a cluster.
    package static func markers(
        _ index: some ClusterHierarchy, list: String, zoom: Double, box: BoundingBox, selected: Int?
    ) throws -> [ClusterMarker] {
        if let selected, !(0..<index.pointCount).contains(selected) {
            throw CatalogError.positionOutOfRange(list: list, position: selected, count: index.pointCount)
        }
        return try ClusterQueries(index).markers(in: box, zoom: zoom, selected: selected)
    }

    /// The list positions of cluster `id`'s stores, `limit` of them from
    /// `offset`.
    package static func leaves(_ index: some ClusterHierarchy, cluster id: Int, limit: Int, offset: Int) throws -> [Int] {
        guard limit >= 1, offset >= 0 else {
            throw CatalogError.invalidArgument(
                "a cluster's leaves need a limit of at least 1 and an offset of at least 0 (got limit \(limit), offset \(offset))")
        }
        return try ClusterQueries(index).leaves(of: id, limit: limit, offset: offset)
    }

    /// The zoom from which the store at `position` is in no cluster.
    package static func unclusterZoom(_ index: some ClusterHierarchy, list: String, position: Int) throws -> Int {
        guard (0..<index.pointCount).contains(position) else {
            throw CatalogError.positionOutOfRange(list: list, position: position, count: index.pointCount)
        }
        return try ClusterQueries(index).unclusterZoom(ofPoint: position)
    }

    /// The markers of tile `z`/`x`/`y` (``ClusterIndex/tile(zoom:x:y:extent:selected:coordinate:)``),
    /// placed where the index keeps its points; ``placed(_:stores:zoom:x:y:extent:)``
    /// then places the stores where they are.
    package static func tile(
        _ index: some ClusterHierarchy, list: String, zoom z: Int, x: Int, y: Int, selected: Int?, extent: Int = 4096
    ) throws -> [TileFeature] {
        if let selected, !(0..<index.pointCount).contains(selected) {
            throw CatalogError.positionOutOfRange(list: list, position: selected, count: index.pointCount)
        }
        guard (0...30).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw CatalogError.invalidArgument("no tile \(z)/\(x)/\(y): x and y must be in 0..<2^z")
        }
        return try ClusterQueries(index).tile(zoom: z, x: x, y: y, extent: extent, selected: selected, coordinate: nil)
    }

    /// The tiles of zoom `z` that may hold a marker (an export's walk).
    package static func occupiedTiles(_ index: some ClusterHierarchy, zoom z: Int) throws -> [TileAddress] {
        guard (0...30).contains(z) else { throw CatalogError.invalidArgument("no zoom \(z): tiles go from 0 to 30") }
        return try ClusterQueries(index).occupiedTiles(zoom: z)
    }

    /// `features` with their stores, each store placed from its own
    /// coordinate as supercluster places a point (the index keeps points
    /// rounded to 32-bit floats, a unit off at high zooms now and then):
    /// of the tile's column and its two neighbours across the antimeridian,
    /// the one the index placed it in.
    package static func placed(
        _ features: [TileFeature], stores: [Int: Store], zoom z: Int, x: Int, y: Int, extent: Int = 4096
    ) -> [ListTileFeature] {
        let z2 = Double(1 << z), size = Double(extent)
        return features.map { feature in
            switch feature.marker {
            case .cluster(let cluster):
                return ListTileFeature(marker: .cluster(cluster), x: feature.x, y: feature.y)
            case .point(let position):
                let store = stores[position]!
                let unitX = WebMercator.unitX(longitude: store.coordinate.longitude)
                let unitY = WebMercator.unitY(latitude: store.coordinate.latitude)
                let column = [Double(x), z2, -1].min { abs(size * (unitX * z2 - $0) - Double(feature.x)) < abs(size * (unitX * z2 - $1) - Double(feature.x)) }!
                return ListTileFeature(
                    marker: .store(index: position, store: store), x: ClusterQueries<ClusterIndex>.jsRound(size * (unitX * z2 - column)),
                    y: ClusterQueries<ClusterIndex>.jsRound(size * (unitY * z2 - Double(y))))
            }
        }
    }
}
