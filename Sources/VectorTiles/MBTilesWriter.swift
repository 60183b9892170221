import Clustering
import Foundation
import GRDB

/// An MBTiles 1.3 file (github.com/mapbox/mbtiles-spec): an SQLite
/// database of `metadata(name, value)` and `tiles(zoom_level, tile_column,
/// tile_row, tile_data)`, rows in the TMS scheme (y from the south), each
/// tile's MVT gzipped, as Martin, tileserver-gl and GDAL read it.
public struct MBTilesWriter: TileArchiveWriter {
    private let database: DatabaseQueue
    private var pending: [(TileAddress, [UInt8])] = []
    /// Tiles written per transaction: one commit per tile would be a
    /// journal write each; a thousand is ~1 MB of tile data held at once.
    static let batch = 1_000

    /// Starts the file at `path`, which must not exist yet.
    public init(path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: path])
        }
        var configuration = Configuration()
        configuration.journalMode = .default
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.writeWithoutTransaction { db in
            // The file is renamed into place only once complete, so a crash
            // leaves a partial file to delete, never a torn one to recover:
            // no journal is needed.
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.execute(
                sql: """
                    CREATE TABLE metadata (name TEXT NOT NULL, value TEXT NOT NULL);
                    CREATE TABLE tiles (zoom_level INTEGER NOT NULL, tile_column INTEGER NOT NULL, tile_row INTEGER NOT NULL, tile_data BLOB NOT NULL);
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    """)
        }
    }

    /// Any order: the index sorts them.
    public func order(_ tiles: [TileAddress]) -> [TileAddress] { tiles }

    public mutating func add(_ tile: TileAddress, gzipped: [UInt8]) throws {
        pending.append((tile, gzipped))
        if pending.count >= Self.batch { try flush() }
    }

    private mutating func flush() throws {
        let tiles = pending
        pending.removeAll(keepingCapacity: true)
        try database.inTransaction { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
            for (tile, bytes) in tiles {
                // TMS rows count from the south: row = 2^z − 1 − y.
                try statement.execute(arguments: [tile.z, tile.x, (1 << tile.z) - 1 - tile.y, Data(bytes)])
            }
            return .commit
        }
    }

    public mutating func finish(_ metadata: TileArchiveMetadata) throws {
        try flush()
        let center = metadata.center
        var rows: [(String, String)] = [
            ("name", metadata.name), ("format", "pbf"), ("type", "overlay"), ("version", "1"),
            ("description", "Stores and clusters of the list \(metadata.name)"),
            ("minzoom", "\(metadata.zooms.lowerBound)"), ("maxzoom", "\(metadata.zooms.upperBound)"),
            ("bounds", "\(metadata.bounds.west),\(metadata.bounds.south),\(metadata.bounds.east),\(metadata.bounds.north)"),
            ("center", "\(center.longitude),\(center.latitude),\(center.zoom)"),
            ("json", "{\"vector_layers\":\(metadata.vectorLayers)}"),
        ]
        if let attribution = metadata.attribution { rows.append(("attribution", attribution)) }
        try database.inTransaction { db in
            for (name, value) in rows {
                try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
            }
            return .commit
        }
        try database.close()
    }
}
