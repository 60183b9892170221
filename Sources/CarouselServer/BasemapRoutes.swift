import BasemapTiles
import Foundation
import GRDB
import GRDBSQLite
import Hummingbird

/// The page's basemap: `GET /basemap/{z}/{x}/{y}.mvt`, a Mapbox Vector
/// Tile of Natural Earth's 1:110m countries (layer `countries`) and
/// capitals and country labels (layer `places`), zooms 0 to 4
/// (Sources/BasemapTiles, built by scripts/make-basemap). A tile with no
/// land or label in it, or at a zoom past 4, is 204 with no body: a client
/// draws the zoom-4 tile scaled up past it. It is public-domain data that
/// never changes while the binary runs, so it is cacheable for a day and
/// needs nothing of the catalog.
struct BasemapRoutes {
    /// The basemap's deepest zoom (scripts/make-basemap: zoom 5 would add
    /// 130 KB to the binary for no detail that 1:110m data has).
    static let maxZoom = 4

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/basemap/{z}/{x}/{file}") { _, context in try Self.tile(context) }
    }

    static func tile(_ context: some RequestContext) throws -> Response {
        // The same addresses as the markers' tiles (0…22, x and y inside
        // the zoom's grid): a map asks this source at any zoom it shows.
        let (z, x, y) = try TileRoutes.address(
            z: context.parameters.get("z"), x: context.parameters.get("x"), file: context.parameters.get("file"))
        guard let bytes = try Self.tiles.get()[Address(z: z, x: x, y: y)] else {
            return Response(status: .noContent, headers: [.contentType: TileRoutes.contentType])
        }
        return Response(
            status: .ok,
            headers: [.contentType: TileRoutes.contentType, .cacheControl: "public, max-age=86400"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    struct Address: Hashable {
        var z: Int
        var x: Int
        /// XYZ's row, 0 at the north (not MBTiles' TMS row).
        var y: Int
    }

    /// Every tile of the basemap by its XYZ address, read once, on the
    /// first request (a static `let` is initialized once, thread-safely).
    /// 271 tiles and 254 KB: holding them all costs what the embedded file
    /// already does, and a request is then one dictionary lookup, with no
    /// SQLite statement or lock on the request path.
    static let tiles: Result<[Address: [UInt8]], any Error> = Result { try load() }

    /// Reads the MBTiles database straight from the bytes compiled into
    /// the binary: SQLite's `sqlite3_deserialize` opens them as the
    /// in-memory database's content, read-only, without a copy and without
    /// a temporary file (nothing to clean up, nothing for a read-only or
    /// full disk to break). The bytes are static, so they outlive the
    /// connection as SQLite asks.
    static func load() throws -> [Address: [UInt8]] {
        let queue = try DatabaseQueue()
        return try queue.inDatabase { db in
            let size = Int64(basemap_mbtiles_count())
            let code = sqlite3_deserialize(
                db.sqliteConnection, "main", UnsafeMutablePointer(mutating: basemap_mbtiles_bytes()), size, size,
                UInt32(SQLITE_DESERIALIZE_READONLY))
            guard code == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: code)) }
            var tiles: [Address: [UInt8]] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
            while let row = try rows.next() {
                let z: Int = row[0], x: Int = row[1], tmsRow: Int = row[2]
                let data: [UInt8] = Array(row[3] as Data)
                // MBTiles 1.3 rows are TMS, counted from the south.
                tiles[Address(z: z, x: x, y: (1 << z) - 1 - tmsRow)] = data
            }
            return tiles
        }
    }
}
