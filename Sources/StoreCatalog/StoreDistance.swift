/// A store found by a nearest search, with its great-circle distance.
public struct StoreDistance: Sendable, Hashable {
    public var store: Store
    public var distanceMeters: Double

    public init(store: Store, distanceMeters: Double) {
        self.store = store
        self.distanceMeters = distanceMeters
    }
}
