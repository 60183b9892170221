/// A point on the Earth in degrees: what a map SDK calls a `LatLng` or
/// `CLLocationCoordinate2D`.
public struct MapCoordinate: Hashable, Sendable {
    /// Degrees north, −90…90.
    public var latitude: Double
    /// Degrees east, −180…180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
