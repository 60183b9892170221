/// A point in Web Mercator world space or on the screen, in points (x east,
/// y south, as on a screen).
public struct MapPoint: Hashable, Sendable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
