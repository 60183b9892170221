import Foundation
import Geo

/// Great-circle distances on a spherical Earth: the haversine formula.
public enum Haversine {
    /// The mean Earth radius R₁ of IUGG/WGS 84, in meters (6,371,008.8).
    public static let earthRadiusMeters = 6_371_008.8

    /// Half the circumference: no two points are farther apart.
    public static let maximumDistanceMeters = Double.pi * earthRadiusMeters

    /// The distance in meters between `a` and `b`:
    /// `d = 2R·asin(√(sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2)))`.
    public static func distance(_ a: Coordinate, _ b: Coordinate) -> Double {
        DistanceFrom(a).meters(toLatitude: b.latitude, longitude: b.longitude)
    }
}

/// Distances from one fixed origin, with its trigonometry computed once: the
/// inner loop of the nearest-store search.
package struct DistanceFrom: Sendable {
    private let latitude: Double  // radians
    private let longitude: Double  // radians
    private let cosLatitude: Double

    package init(_ origin: Coordinate) {
        latitude = origin.latitude * .pi / 180
        longitude = origin.longitude * .pi / 180
        cosLatitude = cos(latitude)
    }

    /// Haversine distance in meters (see ``Haversine/distance(_:_:)``).
    package func meters(toLatitude otherLatitude: Double, longitude otherLongitude: Double) -> Double {
        let phi = otherLatitude * .pi / 180
        let sinHalfDeltaPhi = sin((phi - latitude) / 2)
        let sinHalfDeltaLambda = sin((otherLongitude * .pi / 180 - longitude) / 2)
        let h =
            sinHalfDeltaPhi * sinHalfDeltaPhi
            + cosLatitude * cos(phi) * sinHalfDeltaLambda * sinHalfDeltaLambda
        // Rounding can push h a hair above 1 for antipodal points.
        return 2 * Haversine.earthRadiusMeters * asin(min(1, h.squareRoot()))
    }
}
