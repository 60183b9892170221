/// What the map needs of one store: its id and where it is — a marker pin,
/// without the rest of the row.
public struct StorePin: Hashable, Sendable {
    /// The store's id, unique in its list.
    public var id: String
    /// Degrees north, −90…90 (the `store.y` of the visibleItemsInvalidationHandler article).
    public var latitude: Double
    /// Degrees east, −180…180 (the `store.x` of the visibleItemsInvalidationHandler article).
    public var longitude: Double

    public init(id: String, latitude: Double, longitude: Double) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Where the store is.
    public var coordinate: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
}
