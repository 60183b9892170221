/// How the map gets from the previous camera to a new one.
public struct CameraTransition: Hashable, Sendable {
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        /// Nothing to animate: the first camera of a list, or the same camera.
        case none
        /// A van Wijk–Nuij flight (MapLibre's `flyTo`) over `durationMs`.
        case fly
        /// Too far to fly within `maxDurationMs`: set the camera at once, as
        /// MapLibre's `flyTo` does past its `maxDuration`.
        case jump
    }

    public var kind: Kind
    /// The animation's length in ms: 0 for `none` and `jump`.
    public var durationMs: Double

    public init(kind: Kind, durationMs: Double) {
        self.kind = kind
        self.durationMs = durationMs
    }

    /// No animation.
    public static let none = CameraTransition(kind: .none, durationMs: 0)
    /// Set at once.
    public static let jump = CameraTransition(kind: .jump, durationMs: 0)
}
