import Foundation
import GRDB

/// The `spatial_tiles` R*Tree (Migrations/0007_nearest_tiles.sql): tiles of
/// up to ``capacity`` memberships of one list, each boxed by its stores'
/// unit vectors, searched best-first by ``NearestTileSearch``.
///
/// Why tiles in an R*Tree, measured on the 234,908 GeoNames places (the
/// `sqlite3 .import` of the file takes ~0.46 s on the shared machine):
/// - one R*Tree entry per store (list + x, y, z) cost 3.3 s of CPU to fill
///   in key order (9.1 s wall with the other builds): seven times the whole
///   import, so out of the import budget (≤ 1.5× `.import`);
/// - one entry per run of a latitude band (the leaf read back from
///   `spatial_index` by one range seek) made 135,040 entries at ½° of
///   longitude, 52,721 at 8°: the bands are 1.7 km tall, so sparse places
///   make runs of one or two stores;
/// - 1° × 1° cells cut to 64 stores make ~10,000 entries here (~156,000 at
///   10⁷ stores), and packing the stores into the entry itself makes a
///   tile one read instead of one seek per band it spans.
/// The bands alone (``NearestSearch``, before this table) walk ring after
/// ring of bands: their cost grows with the distance to the k-th store
/// (p99 41.6 ms over HTTP for points drawn uniformly over the globe).
package enum SpatialTiles {
    /// The most memberships in one tile: its stores are all measured when
    /// it is read, so a tile is about as costly to read as the seek that
    /// finds it (64 haversines, ~1.5 µs) and the tree stays small.
    static let capacity = 64

    /// Latitude bands (of ``SpatialIndex``) per tile row: 1°.
    static let bandsPerRow: Int64 = 64

    /// A member's packed size: key, latitude, longitude.
    static let memberSize = 24

    /// The unit vector of a place: x = cos φ cos λ, y = cos φ sin λ, z = sin φ
    /// (its position on the unit sphere). The import, the migration (through
    /// the `carousel_unit_*` SQL functions) and the search compute it here.
    static func unitVector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The tile column of a longitude: its whole degree east of -180 (180
    /// itself joins the last column), as the migration computes it.
    static func column(longitude: Double) -> Int {
        min(359, Int(longitude + 180))
    }

    /// Appends one member to a tile's packed bytes.
    static func pack(store: Int64, latitude: Double, longitude: Double, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: store.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: latitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: longitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Calls `visit` with each member of a tile's packed bytes; a trailing
    /// partial member (never written) is ignored.
    static func forEachMember(
        _ bytes: UnsafeRawBufferPointer, _ visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Void
    ) {
        var offset = 0
        while offset + memberSize <= bytes.count {
            let store = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
            let latitude = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            let longitude = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
            visit(store, latitude, longitude)
            offset += memberSize
        }
    }

    /// Deletes `list`'s tiles: a search of the R*Tree on the list's
    /// dimension, then each by its id.
    static func delete(list: Int64, _ db: Database) throws {
        try db.execute(
            sql: "DELETE FROM spatial_tiles WHERE list_min <= ?1 AND list_max >= ?1 AND list = ?1",
            arguments: [list])
    }

    /// Writes `list`'s tiles again from its `spatial_index` rows: after
    /// stores of the list moved (an import that updated their coordinates)
    /// or left it. One pass over the index in its key order.
    static func rebuild(list: Int64, _ db: Database) throws {
        try delete(list: list, db)
        var writer = try Writer(list: list, db)
        let statement = try RawStatement.cached(
            "SELECT band, longitude, latitude, store FROM spatial_index WHERE list = ? ORDER BY band, longitude, latitude, store",
            in: db)
        defer { statement.reset() }
        statement.bind(list, at: 1)
        while try statement.step() {
            try writer.append(
                band: statement.int64(0), store: statement.int64(3),
                latitude: statement.double(2), longitude: statement.double(1))
        }
        try writer.finish()
    }

    /// Builds one list's tiles from its memberships given in the spatial
    /// index's key order (by band, then longitude), in memory bounded by
    /// one tile row: at most 360 open tiles of ``capacity`` members.
    struct Writer {
        private let list: Int64
        private let insert: RawStatement
        private var row: Int64 = -1
        /// The open tile of each column of the current row.
        private var open: [Int: Tile] = [:]

        private struct Tile {
            var bytes: [UInt8] = []
            var count = 0
            var low = (x: Double.infinity, y: Double.infinity, z: Double.infinity)
            var high = (x: -Double.infinity, y: -Double.infinity, z: -Double.infinity)
        }

        init(list: Int64, _ db: Database) throws {
            self.list = list
            insert = try RawStatement.cached(
                """
                INSERT INTO spatial_tiles (list_min, list_max, x_min, x_max, y_min, y_max, z_min, z_max, list, members)
                VALUES (?1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?1, ?8)
                """, in: db)
        }

        /// Adds one membership; `band` is its ``SpatialIndex/band(latitude:)``,
        /// never smaller than the previous one's.
        mutating func append(band: Int64, store: Int64, latitude: Double, longitude: Double) throws {
            let row = band / SpatialTiles.bandsPerRow
            if row != self.row {
                try flushAll()
                self.row = row
            }
            let column = SpatialTiles.column(longitude: longitude)
            var tile = open.removeValue(forKey: column) ?? Tile()
            if tile.count == 0 { tile.bytes.reserveCapacity(SpatialTiles.capacity * SpatialTiles.memberSize) }
            SpatialTiles.pack(store: store, latitude: latitude, longitude: longitude, into: &tile.bytes)
            tile.count += 1
            let v = SpatialTiles.unitVector(latitude: latitude, longitude: longitude)
            tile.low = (min(tile.low.x, v.x), min(tile.low.y, v.y), min(tile.low.z, v.z))
            tile.high = (max(tile.high.x, v.x), max(tile.high.y, v.y), max(tile.high.z, v.z))
            if tile.count == SpatialTiles.capacity {
                try write(tile)
            } else {
                open[column] = tile
            }
        }

        /// Writes the tiles still open; call once every member is appended.
        mutating func finish() throws {
            try flushAll()
        }

        private mutating func flushAll() throws {
            for column in open.keys.sorted() { try write(open[column]!) }
            open.removeAll(keepingCapacity: true)
        }

        private func write(_ tile: Tile) throws {
            insert.reset()
            insert.bind(list, at: 1)
            insert.bind(tile.low.x, at: 2)
            insert.bind(tile.high.x, at: 3)
            insert.bind(tile.low.y, at: 4)
            insert.bind(tile.high.y, at: 5)
            insert.bind(tile.low.z, at: 6)
            insert.bind(tile.high.z, at: 7)
            insert.bind(bytes: tile.bytes, at: 8)
            try insert.step()
            insert.reset()
        }
    }
}
