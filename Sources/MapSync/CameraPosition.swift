/// Where the map camera goes: centred on a store, at a zoom level (as the visibleItemsInvalidationHandler article:
/// `latitude = store.y`, `longitude = store.x`).
public struct CameraPosition: Hashable, Sendable {
    /// The store's position in the list (its data index in the carousel).
    public var index: Int
    /// The store's id.
    public var storeId: String
    /// The camera target's latitude: the store's.
    public var latitude: Double
    /// The camera target's longitude: the store's.
    public var longitude: Double
    /// The camera zoom level.
    public var zoom: Double

    public init(index: Int, storeId: String, latitude: Double, longitude: Double, zoom: Double) {
        self.index = index
        self.storeId = storeId
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
    }

    /// The camera centred on `pin`, store `index` of the list.
    public init(index: Int, pin: StorePin, zoom: Double) {
        self.init(index: index, storeId: pin.id, latitude: pin.latitude, longitude: pin.longitude, zoom: zoom)
    }
}
