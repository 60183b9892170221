/// A camera the framing chose: where the map view's centre goes and at what
/// zoom, plus the same framing said the way padding-aware SDKs take it —
/// `target` at the centre of the view less `padding` (Google
/// `GMSMapView.padding`, Mapbox `cameraForCoordinateBounds(…, padding)`,
/// MapKit `setVisibleMapRect(_:edgePadding:)`).
///
/// Apply either `center` with no padding, or `target` with `padding`: both
/// give the same picture.
public struct FramedCamera: Hashable, Sendable {
    /// The map view's centre and the zoom.
    public var viewpoint: MapViewpoint
    /// The coordinate that sits at the centre of the visible rect: the store
    /// (`center`, `inset`, `keep`) or the fitted bounds' centre (`fit`).
    public var target: MapCoordinate
    /// The insets that frame `target`: the map's insets, or zero in `center` mode.
    public var padding: MapInsets

    public init(viewpoint: MapViewpoint, target: MapCoordinate, padding: MapInsets) {
        self.viewpoint = viewpoint
        self.target = target
        self.padding = padding
    }

    /// The camera centre.
    public var center: MapCoordinate { viewpoint.center }
    /// The zoom level.
    public var zoom: Double { viewpoint.zoom }
}
