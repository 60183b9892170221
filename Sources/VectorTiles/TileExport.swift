import Clustering
import StoreCatalog

/// Every tile of a list, zoom by zoom, into a ``TileArchiveWriter``: the
/// tiles `carousel tiles export` writes, each the bytes the tile route
/// answers (gzipped). Only tiles that hold a marker are visited
/// (`CatalogEngine.clusterTileAddresses`) and written.
public enum TileExport {
    /// How far an export is: the zoom being written, its tiles visited of
    /// all its candidates, and the tiles written so far in all.
    public struct Progress: Sendable, Hashable {
        public var zoom: Int
        public var visited: Int
        public var candidates: Int
        public var written: Int
        public var bytes: Int
    }

    /// Writes `list`'s tiles at `zooms` (of its stores matching `filter`,
    /// each store with the attributes `properties` names) to `writer`,
    /// then its metadata; `progress` hears of it now and then. Returns
    /// the last progress: the tiles and bytes written.
    public static func write(
        list: String, from catalog: some CatalogEngine, zooms: ClosedRange<Int>, filter: StoreFilter = StoreFilter(),
        properties: [String] = [], options: ClusterOptions = ClusterOptions(), to writer: inout some TileArchiveWriter,
        progress: (Progress) -> Void = { _ in }
    ) async throws -> Progress {
        var state = Progress(zoom: zooms.lowerBound, visited: 0, candidates: 0, written: 0, bytes: 0)
        for z in zooms {
            let tiles = writer.order(try await catalog.clusterTileAddresses(list: list, zoom: z, filter: filter, options: options))
            state.zoom = z
            state.visited = 0
            state.candidates = tiles.count
            progress(state)
            for tile in tiles {
                let features = try await catalog.clusterTile(
                    list: list, zoom: z, x: tile.x, y: tile.y, selected: nil, filter: filter, options: options)
                state.visited += 1
                if !features.isEmpty {
                    let bytes = Gzip.compress(VectorTile.stores(features, properties: properties).encoded())
                    try writer.add(tile, gzipped: bytes)
                    state.written += 1
                    state.bytes += bytes.count
                }
                if state.visited % 1_000 == 0 { progress(state) }
            }
            progress(state)
        }
        let metadata = TileArchiveMetadata(
            name: list, zooms: zooms, bounds: try await bounds(list: list, in: catalog),
            vectorLayers: VectorTile.storesLayerJSON(zooms: zooms, properties: properties))
        try writer.finish(metadata)
        return state
    }

    /// The box of `list`'s stores (west, south, east, north); the whole
    /// Web-Mercator world for an empty list.
    public static func bounds(list: String, in catalog: some CatalogEngine) async throws -> (
        west: Double, south: Double, east: Double, north: Double
    ) {
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0, count = 0
        try await catalog.forEachPin(list: list) { _, pin in
            south = min(south, pin.latitude)
            north = max(north, pin.latitude)
            west = min(west, pin.longitude)
            east = max(east, pin.longitude)
            count += 1
        }
        return count == 0 ? (-180, -WebMercator.maxLatitude, 180, WebMercator.maxLatitude) : (west, south, east, north)
    }
}
