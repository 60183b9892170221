import GRDB

/// One numbered schema step: a `Migrations/NNNN_name.sql` file, compiled into
/// the binary (Package.swift embeds the folder), never edited once shipped.
package struct Migration: Sendable {
    /// The file's number: the schema version once applied.
    package let version: Int
    /// The file name, `NNNN_name.sql`.
    package let fileName: String
    package let sql: String
    /// What SQL cannot do, run after ``sql`` in the same transaction: 0010
    /// builds each list's tile tree in Swift.
    let then: (@Sendable (Database) throws -> Void)?

    init(fileName: String, bytes: [UInt8], then: (@Sendable (Database) throws -> Void)? = nil) {
        self.fileName = fileName
        version = Int(fileName.prefix { $0.isNumber })!
        sql = String(decoding: bytes, as: UTF8.self)
        self.then = then
    }

    /// Every migration, in order. A new `Migrations/*.sql` file goes here
    /// too (a test checks that every file is listed, byte for byte).
    ///
    /// SwiftPM names each embedded file by a mangled identifier (the leading
    /// digit becomes `_`), hence the explicit file names.
    package static let all: [Migration] = [
        Migration(fileName: "0001_initial.sql", bytes: PackageResources._001_initial_sql),
        Migration(fileName: "0002_spatial_index.sql", bytes: PackageResources._002_spatial_index_sql),
        Migration(fileName: "0003_cluster_index.sql", bytes: PackageResources._003_cluster_index_sql),
        Migration(fileName: "0004_finer_bands.sql", bytes: PackageResources._004_finer_bands_sql),
        Migration(fileName: "0005_stores_per_list.sql", bytes: PackageResources._005_stores_per_list_sql),
        Migration(fileName: "0006_tokens.sql", bytes: PackageResources._006_tokens_sql),
        Migration(fileName: "0007_nearest_tiles.sql", bytes: PackageResources._007_nearest_tiles_sql),
        Migration(fileName: "0008_list_versions.sql", bytes: PackageResources._008_list_versions_sql),
        Migration(fileName: "0009_typed_attributes.sql", bytes: PackageResources._009_typed_attributes_sql),
        Migration(fileName: "0010_tile_trees.sql", bytes: PackageResources._010_tile_trees_sql, then: SpatialTiles.rebuildAll),
        Migration(fileName: "0011_change_log.sql", bytes: PackageResources._011_change_log_sql),
        Migration(fileName: "0012_feed_bases.sql", bytes: PackageResources._012_feed_bases_sql, then: ChangeLog.startFeeds),
    ]

    /// The schema version this binary writes.
    package static var latestVersion: Int { all.last!.version }
}
