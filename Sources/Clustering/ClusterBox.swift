/// The map area a clusters query covers: south…north × west…east degrees.
///
/// As supercluster's `getClusters` reads its bbox: longitudes are wrapped
/// into −180…180 (an east edge of exactly 180 stays 180), latitudes clamped
/// to ±90; a box 360° or wider is the whole world, and one whose wrapped
/// west lies east of its wrapped east crosses the antimeridian and is
/// queried as its eastern half, then its western half.
public struct ClusterBox: Sendable, Hashable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The whole world.
    public static let world = ClusterBox(south: -90, west: -180, north: 90, east: 180)

    /// A projected rectangle: minX…maxX × minY…maxY (y grows southwards).
    package struct Rectangle: Sendable, Hashable {
        package var minX, minY, maxX, maxY: Double

        @inline(__always)
        package func contains(x: Double, y: Double) -> Bool {
            x >= minX && x <= maxX && y >= minY && y <= maxY
        }
    }

    /// The projected rectangles to search, in the order their results come.
    package var rectangles: [Rectangle] {
        var minLongitude = Self.wrapped(west)
        let minLatitude = max(-90, min(90, south))
        var maxLongitude = east == 180 ? 180 : Self.wrapped(east)
        let maxLatitude = max(-90, min(90, north))
        if east - west >= 360 {
            minLongitude = -180
            maxLongitude = 180
        } else if minLongitude > maxLongitude {
            return ClusterBox(south: minLatitude, west: minLongitude, north: maxLatitude, east: 180).rectangles
                + ClusterBox(south: minLatitude, west: -180, north: maxLatitude, east: maxLongitude).rectangles
        }
        return [
            Rectangle(
                minX: SphericalMercator.x(longitude: minLongitude), minY: SphericalMercator.y(latitude: maxLatitude),
                maxX: SphericalMercator.x(longitude: maxLongitude), maxY: SphericalMercator.y(latitude: minLatitude))
        ]
    }

    /// ((λ + 180) mod 360 + 360) mod 360 − 180, with JavaScript's `%`
    /// (the remainder takes the dividend's sign).
    private static func wrapped(_ longitude: Double) -> Double {
        ((longitude + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
    }
}
