/// Just where a store is: what a map marker needs, without the rest of the
/// row (no attributes to decode).
public struct StoreLocation: Sendable, Hashable {
    public var id: String
    public var latitude: Double
    public var longitude: Double

    public init(id: String, latitude: Double, longitude: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
    }

    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}
