import Foundation
import GRDB
import GRDBSQLite

extension SpatialTiles {
    /// Registers on a connection what the tiles need: the R*Tree query
    /// callback of ``NearestTileSearch`` (`carousel_nearest`) and the SQL
    /// functions migration 0007 builds the tiles of existing catalogs with.
    static func register(_ db: Database) throws {
        db.add(
            function: DatabaseFunction("carousel_unit_x", argumentCount: 2, pure: true) { values in
                try unitVector(values).x
            })
        db.add(
            function: DatabaseFunction("carousel_unit_y", argumentCount: 2, pure: true) { values in
                try unitVector(values).y
            })
        db.add(
            function: DatabaseFunction("carousel_unit_z", argumentCount: 1, pure: true) { values in
                guard let latitude = Double.fromDatabaseValue(values[0]) else {
                    throw DatabaseError(message: "carousel_unit_z: the latitude is not a number")
                }
                return unitVector(latitude: latitude, longitude: 0).z
            })
        db.add(function: DatabaseFunction("carousel_tile_members", argumentCount: 3, pure: true, aggregate: MembersAggregate.self))
        let code = sqlite3_rtree_query_callback(db.sqliteConnection, NearestTileSearch.callbackName, nearestTileScore, nil, nil)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot register the nearest-tile search")
        }
    }

    private static func unitVector(_ values: [DatabaseValue]) throws -> (x: Double, y: Double, z: Double) {
        guard let latitude = Double.fromDatabaseValue(values[0]), let longitude = Double.fromDatabaseValue(values[1]) else {
            throw DatabaseError(message: "carousel_unit_*: the coordinates are not numbers")
        }
        return unitVector(latitude: latitude, longitude: longitude)
    }

    /// `carousel_tile_members(store, latitude, longitude)`: a group's
    /// members packed as the import packs them.
    private struct MembersAggregate: DatabaseAggregate {
        var bytes: [UInt8] = []

        mutating func step(_ values: [DatabaseValue]) throws {
            guard let store = Int64.fromDatabaseValue(values[0]), let latitude = Double.fromDatabaseValue(values[1]),
                let longitude = Double.fromDatabaseValue(values[2])
            else { throw DatabaseError(message: "carousel_tile_members: a member is not (key, latitude, longitude)") }
            SpatialTiles.pack(store: store, latitude: latitude, longitude: longitude, into: &bytes)
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            Data(bytes)
        }
    }
}

/// The R*Tree query callback of `carousel_nearest(x, y, z, maxChord, list)`:
/// scores each node or tile by the chord from the query point (x, y, z) to
/// its box, so SQLite visits them nearest first (its queue is ordered by
/// score), and prunes those farther than `maxChord` or of another list than
/// `list` (any list when negative).
///
/// The chord to the box is the Euclidean distance from the point to the
/// nearest point of the box: no store in the box is nearer, and a node's
/// box holds its children's, so scores never decrease down the tree and
/// tiles come out in the order of their bounds. Chord c and great-circle
/// distance d are monotone (d = 2R asin(c/2)), so a bound on one bounds the
/// other. A plain C function: SQLite calls it per node entry.
private func nearestTileScore(_ info: UnsafeMutablePointer<sqlite3_rtree_query_info>?) -> Int32 {
    guard let info, info.pointee.nParam == 5, info.pointee.nCoord == 8,
        let parameters = info.pointee.aParam, let box = info.pointee.aCoord
    else { return SQLITE_ERROR }
    let list = parameters[4]
    if list >= 0 && (list < box[0] || list > box[1]) {
        info.pointee.eWithin = NOT_WITHIN
        return SQLITE_OK
    }
    let chord = NearestTileSearch.chord(x: parameters[0], y: parameters[1], z: parameters[2], toBox: box + 2)
    info.pointee.eWithin = chord > parameters[3] ? NOT_WITHIN : PARTLY_WITHIN
    info.pointee.rScore = chord
    return SQLITE_OK
}
