/// A latitude/longitude box: `south…north` × `west…east`, in degrees.
///
/// `west > east` means the box crosses the antimeridian: it runs east from
/// `west` to 180 and on from −180 to `east` (a box across the antimeridian).
public struct BoundingBox: Sendable, Hashable, Codable, CustomStringConvertible {
    public let south: Double
    public let west: Double
    public let north: Double
    public let east: Double

    /// A box, checked: every edge finite and in range, `south <= north`.
    public init(south: Double, west: Double, north: Double, east: Double) throws(GeoError) {
        for (edge, value, limit) in [
            ("south", south, 90.0), ("north", north, 90.0), ("west", west, 180.0), ("east", east, 180.0),
        ] where !(value.isFinite && abs(value) <= limit) {
            throw GeoError("bounding box \(edge) \(value) is outside -\(Int(limit))...\(Int(limit))")
        }
        guard south <= north else {
            throw GeoError("bounding box south \(south) is above north \(north); swap them")
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// A box whose edges are known to be in range, as the constants below.
    private init(unchecked south: Double, _ west: Double, _ north: Double, _ east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// The whole world: −90…90 × −180…180.
    public static let world = BoundingBox(unchecked: -90, -180, 90, 180)

    /// True when the box wraps across longitude ±180.
    public var crossesAntimeridian: Bool { west > east }

    /// True when `coordinate` lies in the box (edges included).
    public func contains(_ coordinate: Coordinate) -> Bool {
        (south...north).contains(coordinate.latitude)
            && longitudeRanges.contains { $0.contains(coordinate.longitude) }
    }

    /// The longitudes covered: one range, or two across the antimeridian.
    package var longitudeRanges: [ClosedRange<Double>] {
        crossesAntimeridian ? [west...180, -180...east] : [west...east]
    }

    public var description: String { "south \(south), west \(west), north \(north), east \(east)" }
}
