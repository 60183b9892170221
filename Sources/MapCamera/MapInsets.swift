/// How many points of the map view each edge's UI covers (a bottom
/// carousel, a top search bar): Google's `GMSMapView.padding`, MapKit's
/// `edgePadding`, Naver's `contentInset`.
public struct MapInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// Nothing covered.
    public static let zero = MapInsets()
}
