/// A point on the globe, in WGS 84 degrees.
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// True when both are finite, latitude in −90…90 and longitude in
    /// −180…180 (WGS 84 degrees).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite
            && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// `latitude,longitude`, as the CLI's `--from` takes it.
    public var description: String { "\(latitude),\(longitude)" }
}

extension Coordinate {
    /// Parses `LAT,LNG` (as in `--from 37.5,127.0`); nil when malformed or
    /// out of range.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let latitude = Double(parts[0].trimmingSpaces()),
            let longitude = Double(parts[1].trimmingSpaces())
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
        guard isValid else { return nil }
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }
}
