import CarouselEngine
import MapSync
import Observables

/// One line of a simulation's timeline: a map target (camera,
/// marker) or, when tracing, what the carousel did (frame, release, jump,
/// scroll), at a virtual time.
public struct TimelineEntry: Hashable, Sendable {
    /// What happened.
    public enum Kind: Hashable, Sendable {
        /// The map camera moved to a store.
        case camera(CameraPosition)
        /// A store's marker was selected.
        case marker(MarkerSelection)
        /// Trace: the carousel drew a frame (offset, focused data index, direction).
        case frame(Frame)
        /// Trace: a finger lifted with `velocity`; where the carousel will rest.
        case release(Release, velocity: Double)
        /// Trace: a silent loop jump between twins (the infinite-banner article's silent jump).
        case jump(Frame.Jump)
        /// Trace: a commanded carousel scroll (a `scrollTo` event, or after a
        /// marker tap, an accessibility page action or an autoplay turn).
        case scroll(ScrollCommand)
        /// What a screen reader speaks for a settled page, or for an
        /// accessibility page action (repeated at an end).
        case status(AccessibilityStatus)
        /// Autoplay's state changed: playing, or paused for these reasons.
        case autoplay(AutoplayState)

        /// The line's `type` in JSON: `camera`, `marker`, `frame`, `release`, `jump`, `scroll`,
        /// `status`, `autoplay`.
        public var name: String {
            switch self {
            case .camera: "camera"
            case .marker: "marker"
            case .frame: "frame"
            case .release: "release"
            case .jump: "jump"
            case .scroll: "scroll"
            case .status: "status"
            case .autoplay: "autoplay"
            }
        }

        /// Whether this is a trace line rather than a map target.
        public var isTrace: Bool {
            switch self {
            case .camera, .marker, .status, .autoplay: false
            case .frame, .release, .jump, .scroll: true
            }
        }
    }

    /// When, in ms of virtual time.
    public var time: Milliseconds
    /// What.
    public var kind: Kind

    public init(time: Milliseconds, _ kind: Kind) {
        self.time = time
        self.kind = kind
    }
}
