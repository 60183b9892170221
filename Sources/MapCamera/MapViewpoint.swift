/// Where a map camera looks: its centre (the view's centre) and zoom.
public struct MapViewpoint: Hashable, Sendable {
    /// The coordinate at the centre of the map view.
    public var center: MapCoordinate
    /// The zoom level (at the framing's tile size).
    public var zoom: Double

    public init(center: MapCoordinate, zoom: Double) {
        self.center = center
        self.zoom = zoom
    }
}
