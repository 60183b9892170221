import Foundation
import GRDB

extension SpatialTiles {
    /// Registers on a connection the SQL functions migration 0007 builds
    /// the tiles of older catalogs with (before 0010 builds them again in
    /// tile trees).
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
