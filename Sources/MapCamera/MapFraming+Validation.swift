import Geo

extension MapFraming {
    /// Checks every parameter before any arithmetic uses it: sizes finite
    /// and positive, a visible rect of positive size, zooms within
    /// [minZoom, maxZoom] ⊂ ``zoomRange``, paddings and margins that leave
    /// room, no NaN or infinity anywhere.
    public func validate() throws(MapFramingError) {
        func number(_ name: String, _ value: Double, _ requirement: String, _ valid: (Double) -> Bool) throws(MapFramingError) {
            guard value.isFinite, valid(value) else {
                throw MapFramingError(parameter: name, requirement: requirement, value: MapFramingError.format(value))
            }
        }
        let largest = 100_000.0
        try number("mapWidth", mapWidth, "a finite number of points in (0, 100000]") { $0 > 0 && $0 <= largest }
        try number("mapHeight", mapHeight, "a finite number of points in (0, 100000]") { $0 > 0 && $0 <= largest }
        for (name, value) in [("top", insets.top), ("left", insets.left), ("bottom", insets.bottom), ("right", insets.right)] {
            try number("insets.\(name)", value, "a finite number of points ≥ 0") { $0 >= 0 }
        }
        let visible = visibleRect
        guard visible.width > 0 else {
            throw MapFramingError(
                parameter: "insets", requirement: "left + right < mapWidth \(MapFramingError.format(mapWidth)) so the visible rect has a width",
                value: "left + right = \(MapFramingError.format(insets.left + insets.right))")
        }
        guard visible.height > 0 else {
            throw MapFramingError(
                parameter: "insets", requirement: "top + bottom < mapHeight \(MapFramingError.format(mapHeight)) so the visible rect has a height",
                value: "top + bottom = \(MapFramingError.format(insets.top + insets.bottom))")
        }
        let range = "[\(MapFramingError.format(Self.zoomRange.lowerBound)), \(MapFramingError.format(Self.zoomRange.upperBound))]"
        try number("minZoom", minZoom, "a zoom in \(range)") { Self.zoomRange.contains($0) }
        try number("maxZoom", maxZoom, "a zoom in [minZoom \(MapFramingError.format(minZoom)), \(MapFramingError.format(Self.zoomRange.upperBound))]") {
            $0 >= minZoom && $0 <= Self.zoomRange.upperBound
        }
        try checkZoom(zoom, named: "zoom")
        guard (0...1000).contains(neighbors) else {
            throw MapFramingError(parameter: "neighbors", requirement: "a whole number in [0, 1000]", value: String(neighbors))
        }
        let shorter = min(visible.width, visible.height)
        try number("fitPadding", fitPadding, "a finite number of points in [0, \(MapFramingError.format(shorter / 2))) (half the visible rect's shorter side)")
        {
            $0 >= 0 && 2 * $0 < shorter
        }
        try number("keepMargin", keepMargin, "a finite number of points in [0, \(MapFramingError.format(shorter / 2))) (half the visible rect's shorter side)")
        {
            $0 >= 0 && 2 * $0 < shorter
        }
        try number("maxDurationMs", maxDurationMs, "a finite number of ms ≥ 0") { $0 >= 0 }
    }

    /// Checks a zoom given beside the framing (the `--from` camera's, or a
    /// minimum zoom): finite and within [minZoom, maxZoom].
    public func checkZoom(_ value: Double, named name: String) throws(MapFramingError) {
        guard value.isFinite, value >= minZoom, value <= maxZoom else {
            throw MapFramingError(
                parameter: name,
                requirement: "a zoom in [minZoom \(MapFramingError.format(minZoom)), maxZoom \(MapFramingError.format(maxZoom))]",
                value: MapFramingError.format(value))
        }
    }

    /// Checks a coordinate given beside the framing: latitude in [−90, 90],
    /// longitude in [−180, 180], both finite.
    public static func checkCoordinate(_ coordinate: Coordinate, named name: String) throws(MapFramingError) {
        guard coordinate.latitude.isFinite, abs(coordinate.latitude) <= 90 else {
            throw MapFramingError(
                parameter: "\(name) latitude", requirement: "a finite number in [-90, 90]", value: MapFramingError.format(coordinate.latitude))
        }
        guard coordinate.longitude.isFinite, abs(coordinate.longitude) <= 180 else {
            throw MapFramingError(
                parameter: "\(name) longitude", requirement: "a finite number in [-180, 180]", value: MapFramingError.format(coordinate.longitude))
        }
    }
}
