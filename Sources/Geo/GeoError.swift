/// A coordinate or box that is not on the globe: a non-finite or
/// out-of-range edge, or a south above its north.
public struct GeoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence fragment a CLI or an API error can show
    /// as it is (`bounding box south 91.0 is outside -90...90`).
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
