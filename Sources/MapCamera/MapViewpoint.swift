import Geo

/// Where a map camera looks: its centre (the view's centre) and zoom.
public struct MapViewpoint: Hashable, Sendable {
    /// The coordinate at the centre of the map view.
    public var center: Coordinate
    /// The zoom level (at the framing's tile size).
    public var zoom: Double

    public init(center: Coordinate, zoom: Double) {
        self.center = center
        self.zoom = zoom
    }
}
