import Geo

extension WebMercator {
    /// The span of a `width` × `height`-point map view centred on `center`
    /// at `zoom`: the degrees between its edges.
    ///
    /// With `S = T · 2^zoom` the world's side in points (`worldSize(atZoom:)`):
    /// - `longitudeDelta = 360 · width / S` — longitude is linear in world x
    ///   (see `point(_:atZoom:)`); at most 360, as a view wider than the
    ///   world still shows each longitude once;
    /// - `latitudeDelta = φ(y_c − height/2) − φ(y_c + height/2)`, where `y_c`
    ///   is the centre's world y and `φ` the inverse projection
    ///   (`coordinate(atUnit:)`), the edges clamped to the world
    ///   (±`maxLatitude`). Latitude is not linear in y, so the delta is
    ///   taken between the real edges, not as `height` times a degree-per-
    ///   point at the centre — the two differ by several percent at city
    ///   zooms away from the equator.
    ///
    /// This is the region MapKit reports for such a view
    /// (`MKMapView.region`): set as `MKCoordinateRegion(center:span:)` it
    /// shows the same map.
    ///
    /// - Precondition: `zoom`, `width` and `height` are finite, the sizes ≥ 0.
    public func span(around center: Coordinate, atZoom zoom: Double, width: Double, height: Double) -> CoordinateSpan {
        precondition(
            zoom.isFinite && width.isFinite && height.isFinite && width >= 0 && height >= 0,
            "span needs a finite zoom and finite sizes ≥ 0, not zoom \(zoom), \(width) × \(height)")
        // Fractions of the world (zoom 0, 1-point tile), so that nothing
        // overflows at any zoom: the view's side over the world's side.
        let size = worldSize(atZoom: zoom)
        let unitWidth = width / size, unitHeight = height / size
        let centerY = unitPoint(center).y
        let top = max(centerY - unitHeight / 2, 0)
        let bottom = min(centerY + unitHeight / 2, 1)
        let north = coordinate(atUnit: MapPoint(x: 0.5, y: top)).latitude
        let south = coordinate(atUnit: MapPoint(x: 0.5, y: bottom)).latitude
        return CoordinateSpan(latitudeDelta: north - south, longitudeDelta: min(360 * unitWidth, 360))
    }
}

extension MapFraming {
    /// The span of this framing's whole map view (``mapWidth`` ×
    /// ``mapHeight``, insets included: the region is the view's, not the
    /// visible rect's) at `viewpoint`.
    public func span(at viewpoint: MapViewpoint) -> CoordinateSpan {
        mercator.span(around: viewpoint.center, atZoom: viewpoint.zoom, width: mapWidth, height: mapHeight)
    }
}
