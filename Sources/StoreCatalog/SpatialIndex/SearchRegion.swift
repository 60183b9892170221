import Foundation
import Geo

/// A latitude range times one or two longitude ranges: what the spatial index
/// scans, band by band.
package struct SearchRegion: Sendable, Hashable {
    package var south: Double
    package var north: Double
    package var longitudeRanges: [ClosedRange<Double>]

    package init(south: Double, north: Double, longitudeRanges: [ClosedRange<Double>]) {
        self.south = south
        self.north = north
        self.longitudeRanges = longitudeRanges
    }

    package init(_ box: BoundingBox) {
        self.init(south: box.south, north: box.north, longitudeRanges: box.longitudeRanges)
    }

    /// The smallest box holding every point within `radiusMeters` of `center`
    /// on the sphere (J. P. Matuschek, "Finding Points Within a Distance of a
    /// Latitude/Longitude Using Bounding Coordinates"): latitude ± δ, and
    /// longitude ± asin(sin δ / cos φ), δ = r / R; every longitude once the
    /// circle reaches a pole.
    package init(around center: Coordinate, radiusMeters: Double) {
        // A hair of slack so that rounding never drops a point lying right on
        // the circle: exactness of the nearest search depends on it.
        let slack = 1e-9
        let delta = radiusMeters / Haversine.earthRadiusMeters
        let phi = center.latitude * .pi / 180
        let south = phi - delta, north = phi + delta
        guard south > -.pi / 2, north < .pi / 2 else {
            self.init(
                south: max(-90, south * 180 / .pi - slack), north: min(90, north * 180 / .pi + slack),
                longitudeRanges: [-180...180])
            return
        }
        let deltaLambda = asin(min(1, sin(delta) / cos(phi))) * 180 / .pi + slack
        let west = center.longitude - deltaLambda, east = center.longitude + deltaLambda
        let ranges: [ClosedRange<Double>] =
            if deltaLambda >= 180 { [-180...180] } else if west < -180 { [west + 360...180, -180...east] } else if east > 180 {
                [west...180, -180...east - 360]
            } else { [west...east] }
        self.init(south: south * 180 / .pi - slack, north: north * 180 / .pi + slack, longitudeRanges: ranges)
    }
}
