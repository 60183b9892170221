import Foundation

/// Spherical Web Mercator (EPSG:3857), the projection of every web and
/// mobile map SDK, in points at a zoom level: the world is a square of
/// `tileSize · 2^zoom` points, x east from the antimeridian, y south from
/// the top edge at 85.0511° N.
public struct WebMercator: Hashable, Sendable {
    /// The latitude where the square world ends: atan(sinh π), in degrees.
    public static let maxLatitude = 85.0511287798066

    /// The side of the world at zoom 0, in points.
    public let tileSize: Double

    public init(tileSize: TileSize) {
        self.tileSize = tileSize.points
    }

    /// The side of the world at `zoom`, in points: `T · 2^zoom`.
    public func worldSize(atZoom zoom: Double) -> Double {
        tileSize * pow(2, zoom)
    }

    /// `coordinate` in world points at `zoom`:
    /// `wx = (lng/360 + 0.5) · T · 2^z`,
    /// `wy = (0.5 − ln((1 + sin φ)/(1 − sin φ)) / (4π)) · T · 2^z`,
    /// φ clamped to ±``maxLatitude``.
    public func point(_ coordinate: Coordinate, atZoom zoom: Double) -> MapPoint {
        let unit = unitPoint(coordinate)
        let size = worldSize(atZoom: zoom)
        return MapPoint(x: unit.x * size, y: unit.y * size)
    }

    /// `coordinate` as a fraction of the world (zoom 0 with a 1-point tile):
    /// x and y in [0, 1].
    public func unitPoint(_ coordinate: Coordinate) -> MapPoint {
        let latitude = min(max(coordinate.latitude, -Self.maxLatitude), Self.maxLatitude)
        return MapPoint(x: Self.unitX(longitude: coordinate.longitude), y: Self.unitY(latitude: latitude))
    }

    /// The coordinate at world point `point` at `zoom`: the inverse of
    /// ``point(_:atZoom:)``, the longitude wrapped into [−180, 180).
    public func coordinate(at point: MapPoint, atZoom zoom: Double) -> Coordinate {
        let size = worldSize(atZoom: zoom)
        return coordinate(atUnit: MapPoint(x: point.x / size, y: point.y / size))
    }

    /// The coordinate at a fraction of the world (see ``unitPoint(_:)``).
    public func coordinate(atUnit unit: MapPoint) -> Coordinate {
        // φ = 2·atan(exp(π·(1 − 2y))) − π/2 inverts the y above.
        let latitude = (2 * atan(exp(.pi * (1 - 2 * unit.y))) - .pi / 2) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: Self.wrappedLongitude(360 * (unit.x - 0.5)))
    }

    /// `longitude` wrapped into [−180, 180).
    public static func wrappedLongitude(_ longitude: Double) -> Double {
        let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
    }

    /// `dx` (a difference of world x at a zoom whose world is `size` wide)
    /// taken the shorter way round the antimeridian: in [−size/2, size/2).
    package static func shortestDelta(_ dx: Double, worldSize size: Double) -> Double {
        var delta = (dx + size / 2).truncatingRemainder(dividingBy: size)
        if delta < 0 { delta += size }
        return delta - size / 2
    }

    // MARK: The unit square, as supercluster projects points

    /// x = λ / 360 + 0.5: a longitude as a fraction of the world's width
    /// (supercluster's `lngX`).
    public static func unitX(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// y = 0.5 − ln((1 + sin φ) / (1 − sin φ)) / (4π), clamped to 0…1: a
    /// latitude as a fraction of the world's height from its top edge
    /// (supercluster's `latY`, whose arithmetic this keeps to the last bit:
    /// the clustering is checked against supercluster's own output).
    ///
    /// Clamping y rather than φ to ±``maxLatitude`` gives the same value for
    /// every latitude that projects inside the square.
    public static func unitY(latitude: Double) -> Double {
        let sine = sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    /// The longitude of a unit x: (x − 0.5) · 360 (supercluster's `xLng`).
    public static func longitude(unitX x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// The latitude of a unit y: 360 · atan(exp((180 − 360 y) · π/180)) / π − 90
    /// (supercluster's `yLat`).
    public static func latitude(unitY y: Double) -> Double {
        let y2 = (180 - y * 360) * Double.pi / 180
        return 360 * atan(exp(y2)) / Double.pi - 90
    }

    /// A point as supercluster stores it: projected to the unit square, then
    /// rounded to a 32-bit float (`Math.fround`), which decides which points
    /// fall within a radius of each other.
    public static func roundedUnitPoint(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (Double(Float(unitX(longitude: longitude))), Double(Float(unitY(latitude: latitude))))
    }
}
