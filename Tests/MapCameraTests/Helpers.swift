import MapCamera
import Testing

/// `a` and `b` within `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// A coordinate, briefly.
func at(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(latitude: latitude, longitude: longitude)
}

/// The coordinate `dx`, `dy` points from `origin` at `zoom`: how far a pan
/// of that many points goes, worked backwards through the projection.
func coordinate(_ dx: Double, _ dy: Double, from origin: Coordinate, atZoom zoom: Double, tileSize: TileSize = .t256) -> Coordinate {
    let mercator = WebMercator(tileSize: tileSize)
    let point = mercator.point(origin, atZoom: zoom)
    return mercator.coordinate(at: MapPoint(x: point.x + dx, y: point.y + dy), atZoom: zoom)
}
