import Clustering
import StoreCatalog

/// Every tile of a list, zoom by zoom, into a ``TileArchiveWriter``: the
/// tiles `carousel tiles export` writes, each the bytes the tile route
/// answers (gzipped). Only tiles that hold a marker are visited
/// (`CatalogEngine.clusterTileAddresses`) and written.
public enum TileExport {
    /// Tiles read from the catalog at once: large enough that a read's
    /// own cost vanishes, small enough that a batch's stores stay a few
    /// hundred kilobytes.
    static let batch = 256

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
            // Batches of tiles from the catalog (one read each), the next
            // batch read while this one is encoded, gzipped and written:
            // the two halves of the work on the two halves of a 2-core
            // machine.
            let batches = stride(from: 0, to: tiles.count, by: Self.batch).map { Array(tiles[$0..<min($0 + Self.batch, tiles.count)]) }
            var next: Task<[[ListTileFeature]], any Error>? = batches.first.map { batch in
                Task { try await catalog.clusterTiles(list: list, tiles: batch, selected: nil, filter: filter, options: options) }
            }
            // A failed write leaves no read running behind it.
            defer { next?.cancel() }
            for (i, batch) in batches.enumerated() {
                let answers = try await next!.value
                next =
                    i + 1 < batches.count
                    ? Task { [batch = batches[i + 1]] in
                        try await catalog.clusterTiles(list: list, tiles: batch, selected: nil, filter: filter, options: options)
                    } : nil
                for (tile, features) in zip(batch, answers) {
                    state.visited += 1
                    guard !features.isEmpty else { continue }
                    let bytes = Gzip.compress(VectorTile.stores(features, properties: properties).encoded())
                    try writer.add(tile, gzipped: bytes)
                    state.written += 1
                    state.bytes += bytes.count
                }
                progress(state)
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
