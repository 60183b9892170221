import Geo

extension Store {
    /// Where the store is.
    public var coordinate: Coordinate {
        Coordinate(latitude: latitude, longitude: longitude)
    }
}
