import Geo

/// The map a carousel covers, and how the camera frames the focused store
/// on it: the view's size, the insets the UI covers, the tile size that
/// fixes what a zoom means, the zoom limits and the framing mode.
///
/// Every map SDK takes padding for the UI over the map (Google
/// `GMSMapView.padding`, Mapbox `cameraForCoordinateBounds(…, padding)`,
/// MapKit `setVisibleMapRect(_:edgePadding:)`, Naver `contentInset`); here
/// the framing is computed once, so the app only applies the camera.
/// ``frame(_:fitting:from:atLeastZoom:)`` chooses a camera;
/// ``transition(from:to:)`` how to get there. Call ``validate()`` before
/// using a framing built from user input.
public struct MapFraming: Hashable, Sendable {
    /// Map view width, in points (default 390: an iPhone in portrait).
    public var mapWidth: Double = 390
    /// Map view height, in points (default 844).
    public var mapHeight: Double = 844
    /// The points of the view covered by UI on each edge (default none).
    public var insets: MapInsets = .zero
    /// The tile size that fixes what a zoom level means (default 256).
    public var tileSize: TileSize = .t256
    /// How the camera frames the focused store (default `center`).
    public var mode: FramingMode = .center
    /// `fit`: how many cards on each side of the focused one are framed too (default 1).
    public var neighbors: Int = 1
    /// `fit`: the room kept between the fitted stores and the visible rect's edges (default 32 pt).
    public var fitPadding: Double = 32
    /// `keep`: how far inside the visible rect the store must stay for the camera to stay (default 48 pt).
    public var keepMargin: Double = 48
    /// The lowest zoom the camera may take (default 0).
    public var minZoom: Double = 0
    /// The highest zoom the camera may take (default 20).
    public var maxZoom: Double = 20
    /// The zoom for one store (default 16).
    public var zoom: Double = 16
    /// A flight longer than this, in ms, becomes a jump (default 2000).
    public var maxDurationMs: Double = 2000

    /// The zooms any map allows here: MapLibre's range, 0…24.
    public static let zoomRange: ClosedRange<Double> = 0...24

    public init(
        mapWidth: Double = 390, mapHeight: Double = 844, insets: MapInsets = .zero,
        tileSize: TileSize = .t256, mode: FramingMode = .center, neighbors: Int = 1,
        fitPadding: Double = 32, keepMargin: Double = 48, minZoom: Double = 0, maxZoom: Double = 20,
        zoom: Double = 16, maxDurationMs: Double = 2000
    ) {
        self.mapWidth = mapWidth
        self.mapHeight = mapHeight
        self.insets = insets
        self.tileSize = tileSize
        self.mode = mode
        self.neighbors = neighbors
        self.fitPadding = fitPadding
        self.keepMargin = keepMargin
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.zoom = zoom
        self.maxDurationMs = maxDurationMs
    }

    /// The projection at this framing's tile size.
    public var mercator: WebMercator { WebMercator(tileSize: tileSize) }

    /// The part of the view no UI covers: x in [left, mapWidth − right], y
    /// in [top, mapHeight − bottom].
    public var visibleRect: ScreenRect {
        ScreenRect(
            minX: insets.left, minY: insets.top,
            maxX: mapWidth - insets.right, maxY: mapHeight - insets.bottom)
    }

    /// ``visibleRect`` shrunk by ``keepMargin`` on every side: where the
    /// store may sit in `keep` mode without the camera moving.
    public var safeRect: ScreenRect { visibleRect.insetBy(keepMargin) }

    /// Where `coordinate` appears on the map view under `viewpoint`:
    /// the camera centre is the view's centre, x taken the shorter way round
    /// the antimeridian.
    public func screenPoint(of coordinate: Coordinate, under viewpoint: MapViewpoint) -> MapPoint {
        let mercator = mercator
        let point = mercator.point(coordinate, atZoom: viewpoint.zoom)
        let center = mercator.point(viewpoint.center, atZoom: viewpoint.zoom)
        let dx = WebMercator.shortestDelta(point.x - center.x, worldSize: mercator.worldSize(atZoom: viewpoint.zoom))
        return MapPoint(x: mapWidth / 2 + dx, y: mapHeight / 2 + point.y - center.y)
    }
}
