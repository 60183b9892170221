import Geo

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
    public var target: Coordinate
    /// The insets that frame `target`: the map's insets, or zero in `center` mode.
    public var padding: MapInsets
    /// The degrees the whole map view spans at ``viewpoint``, for MapKit's
    /// `MKCoordinateRegion(center:span:)`; set by
    /// `MapFraming/frame(_:fitting:from:atLeastZoom:)`, which knows the
    /// view's size (``MapFraming/span(at:)``).
    public var span: CoordinateSpan?

    public init(viewpoint: MapViewpoint, target: Coordinate, padding: MapInsets, span: CoordinateSpan? = nil) {
        self.viewpoint = viewpoint
        self.target = target
        self.padding = padding
        self.span = span
    }

    /// The camera centre.
    public var center: Coordinate { viewpoint.center }
    /// The zoom level.
    public var zoom: Double { viewpoint.zoom }
}
