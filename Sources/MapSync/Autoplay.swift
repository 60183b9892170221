import Observables

/// What autoplay does at the last store of a carousel that does not loop
/// (a looping one wraps, with the loop jump).
public enum AutoplayEnd: String, CaseIterable, Hashable, Sendable {
    /// Back to the first store, as the W3C APG carousel example's rotation
    /// does after its last slide.
    case rewind
    /// Stop there; only the user's play starts it again.
    case stop
}

/// How a carousel turns by itself: one page every ``intervalMs``.
///
/// WCAG 2.2 success criterion 2.2.2 (Pause, Stop, Hide) asks that motion
/// lasting more than 5 s can be paused; the view model pauses it for every
/// ``AutoplayPauseReason`` and the user's stop.
public struct AutoplaySettings: Hashable, Sendable {
    /// 5 s, the length WCAG 2.2.2 names and the APG carousel example turns at.
    public static let defaultIntervalMs: Milliseconds = 5000
    /// A day: an interval longer than that is a mistake (a value in seconds
    /// read as ms the other way round would be far shorter; one in µs far
    /// longer), and it keeps every timer's sum far from overflow.
    public static let maxIntervalMs: Milliseconds = 86_400_000

    /// The time between two turns, in ms: in `(0, 86_400_000]`.
    public let intervalMs: Milliseconds
    /// What happens at the last store when the carousel does not loop.
    public let end: AutoplayEnd

    /// Checks `intervalMs`.
    ///
    /// - Throws: ``AutoplayError/interval(_:)`` for an interval that is not
    ///   a finite number in `(0, 86_400_000]` ms.
    public init(intervalMs: Milliseconds = defaultIntervalMs, end: AutoplayEnd = .rewind) throws(AutoplayError) {
        guard intervalMs.isFinite, intervalMs > 0, intervalMs <= Self.maxIntervalMs else {
            throw .interval(intervalMs)
        }
        self.intervalMs = intervalMs
        self.end = end
    }
}

/// Why autoplay does not turn now. It turns only while none holds; the
/// W3C APG carousel example pauses for hover and keyboard focus, and stays
/// stopped once its user stops it, and WCAG 2.2.2 asks for the pause.
public enum AutoplayPauseReason: String, CaseIterable, Hashable, Sendable {
    /// A finger drags the carousel, or its fling decelerates
    /// (`scrollViewWillBeginDragging` until `scrollViewDidEndDecelerating`).
    case drag
    /// The carousel scrolls to a tapped marker's card, until it settles.
    case markerTap
    /// The user pans, pinches or rotates the map.
    case mapGesture
    /// Keyboard or accessibility focus is inside the carousel (APG: rotation
    /// pauses while focus is in it).
    case focus
    /// A pointer hovers over the carousel (APG: rotation pauses on hover).
    case hover
    /// A screen reader runs (`UIAccessibility.isVoiceOverRunning`, TalkBack):
    /// its user pages by hand and hears each page.
    case voiceOver
    /// The user asked for reduced motion (`UIAccessibility.isReduceMotionEnabled`,
    /// `prefers-reduced-motion`): autoplay starts paused, as the APG example
    /// does; the user's play starts it anyway.
    case reducedMotion
    /// The app is in the background.
    case background
    /// The carousel is off screen.
    case offscreen
    /// The user stopped it; only the user's play ends this one.
    case userStop
    /// A carousel that does not loop reached its last store with
    /// ``AutoplayEnd/stop``; the user's play starts it again.
    case end

    /// The reasons an app (a script, a session) sets and clears by itself:
    /// `voiceOver`, `focus`, `hover`, `background`, `offscreen`, `mapGesture`.
    /// The others follow the view model's own inputs: a drag and its
    /// settling, a marker tap, the reduce-motion setting, play and stop.
    public static let external: [AutoplayPauseReason] = [.voiceOver, .focus, .hover, .background, .offscreen, .mapGesture]

    /// The reasons only the user's play ends (the APG example's rotation
    /// button); the others end when their cause does.
    public var needsPlay: Bool {
        switch self {
        case .userStop, .end, .reducedMotion: true
        default: false
        }
    }

    /// The reason a script or session names, or an error listing the names.
    public init(externalName name: String) throws(AutoplayError) {
        guard let reason = Self(rawValue: name), Self.external.contains(reason) else {
            throw .unknownPauseReason(String(name.prefix(40)))
        }
        self = reason
    }
}

/// Whether autoplay turns, and what holds it: sent whenever either changes.
public struct AutoplayState: Hashable, Sendable {
    /// True while it turns: autoplay is on and no reason holds.
    public let isPlaying: Bool
    /// What holds it, in ``AutoplayPauseReason`` declaration order; empty
    /// while it plays.
    public let reasons: [AutoplayPauseReason]

    public init(isPlaying: Bool, reasons: [AutoplayPauseReason]) {
        self.isPlaying = isPlaying
        self.reasons = reasons
    }
}

/// An autoplay setting or input that cannot be honoured.
public enum AutoplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An interval that is not in `(0, 86_400_000]` ms.
    case interval(Double)
    /// A pause reason a script or session cannot name.
    case unknownPauseReason(String)
    /// A pause reason the view model sets itself, given to `setPause`.
    case notExternal(AutoplayPauseReason)

    public var description: String {
        let names = AutoplayPauseReason.external.map(\.rawValue).joined(separator: ", ")
        switch self {
        case .interval(let value):
            let shown = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
            return "autoplay interval must be a number of ms above 0 and at most 86400000 (a day); got \(shown)"
        case .unknownPauseReason(let name):
            return "unknown pause reason '\(name)': a pause reason is one of \(names)"
        case .notExternal(let reason):
            return "the pause reason \(reason.rawValue) follows the view model's own inputs; set one of \(names)"
        }
    }
}

/// The pure rule of autoplay, without timers: a set of reasons and whether
/// it is on. The view model keeps one and starts the timer from zero each
/// time ``isPlaying`` turns true (APG: rotation resumes from a full interval).
struct AutoplayGate: Hashable, Sendable {
    var settings: AutoplaySettings?
    var reasons: Set<AutoplayPauseReason> = []

    var isPlaying: Bool { settings != nil && reasons.isEmpty }

    var state: AutoplayState {
        AutoplayState(isPlaying: isPlaying, reasons: AutoplayPauseReason.allCases.filter(reasons.contains))
    }

    /// The user's play: ends every stop (`userStop`, `end`, `reducedMotion`);
    /// the pauses whose causes still hold stay.
    mutating func play() {
        reasons = reasons.filter { !$0.needsPlay }
    }
}
