import GRDB
import Geo

/// The `spatial_index` table (Migrations/0002_spatial_index.sql): one row per
/// list membership, keyed by (latitude band, longitude, latitude, store,
/// list). Since migration 0005 a store belongs to one list, so that is one
/// row per store; the list stays in the key so that a query filters by list
/// on the index itself.
///
/// Why this design, measured on the 234,908 GeoNames places (SQL alone,
/// rows already in SQLite; the whole `sqlite3 .import` of the file takes
/// ~0.37 s): the stores table with its unique id index costs 0.25 s; adding
/// an R*Tree costs +1.44 s, an index on (band, longitude, latitude) filled in
/// file order +0.17 s, an integer cell index +0.13 s, an index on latitude
/// +0.13 s; this table, filled in key order, +0.08 s. A box is still one
/// range seek per latitude band (¼° then, 1/64° since migration 0004: see
/// its header), and the index alone answers which stores are in
/// it (coordinates included).
package enum SpatialIndex {
    /// Bands per degree of latitude (migration 0004; 4 before it): a band
    /// is 1.7 km tall, so a box reads a few times the stores it holds even
    /// in a 10⁷-store list, and a city-sized box spans a few bands.
    package static let bandsPerDegree = 64.0

    /// A band's height on the ground: 1/64° of a meridian, 1.74 km.
    package static let bandHeightMeters = Haversine.earthRadiusMeters * .pi / 180 / bandsPerDegree

    /// The band of a latitude: floor((latitude + 90) × 64), computed exactly
    /// as the SQL of migration 0004 does (truncation of a non-negative double).
    package static func band(latitude: Double) -> Int64 {
        Int64((latitude + 90) * bandsPerDegree)
    }

    /// ``band(latitude:)`` in SQL, of the expression `latitude`: the same
    /// double arithmetic, as migration 0002 computes it.
    package static func bandSQL(latitude: String) -> String {
        "CAST((\(latitude) + 90.0) * \(bandsPerDegree) AS INTEGER)"
    }

    /// A store's row in the index for the list being imported.
    package struct Entry: Comparable, BitwiseCopyable {
        var band: Int64
        var longitude: Double
        var latitude: Double
        var store: Int64

        init(store: Int64, latitude: Double, longitude: Double) {
            band = SpatialIndex.band(latitude: latitude)
            self.longitude = longitude
            self.latitude = latitude
            self.store = store
        }

        package static func < (a: Entry, b: Entry) -> Bool {
            (a.band, a.longitude, a.latitude, a.store) < (b.band, b.longitude, b.latitude, b.store)
        }
    }

    /// The insert of a list's memberships, to be given them in key order:
    /// inserting into the B-tree in key order touches each page once, where
    /// file order (random here) costs more than the rest of the import
    /// together.
    static func inserter(list: Int64, _ db: Database) throws -> BatchInsert<Entry> {
        try BatchInsert<Entry>(
            db, into: "spatial_index", columns: ["band", "longitude", "latitude", "store", "list"]
        ) { entry, statement, first in
            statement.bind(entry.band, at: first)
            statement.bind(entry.longitude, at: first + 1)
            statement.bind(entry.latitude, at: first + 2)
            statement.bind(entry.store, at: first + 3)
            statement.bind(list, at: first + 4)
        }
    }

    /// Removes one membership, and writes the list's tiles again without
    /// it (a whole list's worth of work: for rare edits, not bulk ones).
    package static func remove(store: Int64, at coordinate: Coordinate, list: Int64, _ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM spatial_index
                WHERE band = ? AND longitude = ? AND latitude = ? AND store = ? AND list = ?
                """,
            arguments: [band(latitude: coordinate.latitude), coordinate.longitude, coordinate.latitude, store, list])
        try SpatialTiles.rebuild(list: list, db)
    }

    /// Calls `visit(store, latitude, longitude)` for every store in `region`,
    /// of `list` or of any list: one index range per band and longitude
    /// range.
    package static func scan(
        _ region: SearchRegion, list: Int64?, _ db: Database,
        visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Void
    ) throws {
        try Scanner(list: list, db).scan(region, visit: visit)
    }

    /// The index's range scan, prepared once for the many bands of a query:
    /// fetching the cached statement hashes its SQL text, which per band
    /// cost as much as the band's seek.
    package struct Scanner {
        private let statement: RawStatement

        /// A scan of `list`'s stores, or of every list's.
        package init(list: Int64?, _ db: Database) throws {
            statement = try RawStatement.cached(list == nil ? SpatialIndex.scanSQL : SpatialIndex.scanListSQL, in: db)
            if let list { statement.bind(list, at: 6) }
        }

        /// ``SpatialIndex/scan(_:list:_:visit:)`` with this scan.
        package func scan(_ region: SearchRegion, visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Void) throws {
            try scan(
                region,
                while: {
                    visit($0, $1, $2); return true
                })
        }

        /// The same scan, stopped as soon as `visit` returns false: the
        /// first page of a continent-sized box reads that page's bands, not
        /// the continent's.
        package func scan(
            _ region: SearchRegion, while visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Bool
        ) throws {
            for band in band(latitude: region.south)...band(latitude: region.north) {
                guard try scan(band: band, of: region, while: visit) else { return }
            }
        }

        /// The stores of `region` in one latitude band.
        package func scan(
            band: Int64, of region: SearchRegion,
            visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Void
        ) throws {
            _ = try scan(
                band: band, of: region,
                while: {
                    visit($0, $1, $2); return true
                })
        }

        /// The stores of `region` in one latitude band until `visit` returns
        /// false; false when it did.
        private func scan(
            band: Int64, of region: SearchRegion,
            while visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Bool
        ) throws -> Bool {
            defer { statement.reset() }
            statement.bind(band, at: 1)
            statement.bind(region.south, at: 4)
            statement.bind(region.north, at: 5)
            for longitudes in region.longitudeRanges {
                statement.reset()
                statement.bind(longitudes.lowerBound, at: 2)
                statement.bind(longitudes.upperBound, at: 3)
                while try statement.step() {
                    // One row per store: a store belongs to one list (0005).
                    guard visit(statement.int64(0), statement.double(1), statement.double(2)) else { return false }
                }
            }
            return true
        }
    }

    private static let scanSQL = """
        SELECT store, latitude, longitude FROM spatial_index
        WHERE band = ?1 AND longitude BETWEEN ?2 AND ?3 AND latitude BETWEEN ?4 AND ?5
        """
    private static let scanListSQL = scanSQL + " AND list = ?6"
}
