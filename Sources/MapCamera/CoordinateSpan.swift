import Geo

/// How much of the map a view shows, in degrees: the north–south and
/// east–west extents of the whole map view at one camera — what MapKit's
/// `MKCoordinateSpan` (in `MKCoordinateRegion`) takes.
///
/// Computed by `WebMercator.span(around:atZoom:width:height:)` from the
/// view's Web-Mercator extent.
public struct CoordinateSpan: Hashable, Sendable {
    /// Degrees of latitude from the view's bottom edge to its top edge.
    public var latitudeDelta: Double
    /// Degrees of longitude from the view's left edge to its right edge (at
    /// most 360).
    public var longitudeDelta: Double

    public init(latitudeDelta: Double, longitudeDelta: Double) {
        self.latitudeDelta = latitudeDelta
        self.longitudeDelta = longitudeDelta
    }
}
