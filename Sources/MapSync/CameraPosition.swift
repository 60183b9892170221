import Geo
import MapCamera

/// Where the map camera goes for a store: the view's centre and zoom, and,
/// with a map framing, the same framing for padding-aware SDKs (`target`
/// with `padding`) and how to get there (`animation`).
///
/// Without a framing (the visibleItemsInvalidationHandler article's camera, `latitude = store.y`,
/// `longitude = store.x`) the centre and target are the store, the padding
/// is zero and `animation` is nil: the app animates as it likes.
public struct CameraPosition: Hashable, Sendable {
    /// The store's position in the list (its data index in the carousel).
    public var index: Int
    /// The store's id.
    public var storeId: String
    /// The latitude of the map view's centre.
    public var latitude: Double
    /// The longitude of the map view's centre.
    public var longitude: Double
    /// The camera zoom level.
    public var zoom: Double
    /// The coordinate framed at the centre of the visible rect: the store,
    /// or in `fit` mode the fitted bounds' centre.
    public var target: Coordinate
    /// The insets that frame `target` (zero in `center` mode).
    public var padding: MapInsets
    /// How to move from the previous camera; nil without a map framing.
    public var animation: CameraTransition?
    /// The latitude and longitude deltas of the whole map view at this
    /// camera — MapKit's `MKCoordinateRegion(center: (latitude, longitude),
    /// span:)` — computed from the view's Web-Mercator extent
    /// (`WebMercator/span(around:atZoom:width:height:)`); nil without a map
    /// framing, which alone knows the view's size.
    public var span: CoordinateSpan?

    public init(
        index: Int, storeId: String, latitude: Double, longitude: Double, zoom: Double,
        target: Coordinate? = nil, padding: MapInsets = .zero, animation: CameraTransition? = nil,
        span: CoordinateSpan? = nil
    ) {
        self.index = index
        self.storeId = storeId
        self.latitude = latitude
        self.longitude = longitude
        self.zoom = zoom
        self.target = target ?? Coordinate(latitude: latitude, longitude: longitude)
        self.padding = padding
        self.animation = animation
        self.span = span
    }

    /// The camera centred on `pin`, store `index` of the list, with no framing.
    public init(index: Int, pin: StorePin, zoom: Double) {
        self.init(index: index, storeId: pin.id, latitude: pin.latitude, longitude: pin.longitude, zoom: zoom)
    }

    /// The camera `framed` for `pin`, store `index`, reached by `animation`.
    public init(index: Int, pin: StorePin, framed: FramedCamera, animation: CameraTransition) {
        self.init(
            index: index, storeId: pin.id, latitude: framed.center.latitude, longitude: framed.center.longitude,
            zoom: framed.zoom, target: framed.target, padding: framed.padding, animation: animation, span: framed.span)
    }

    /// The camera's centre and zoom.
    public var viewpoint: MapViewpoint {
        MapViewpoint(center: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom)
    }
}
