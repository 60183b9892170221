import MapSync
import Observables

/// How far a simulation may run before it stops with a
/// ``SimulationLimitError``: a bound on virtual time and on frames drawn.
///
/// A script is data from outside: a drag over 10¹² ms, an animation of
/// 10¹⁵ ms or a deceleration rate of 0.9999999999999999 per ms (a fling
/// that takes 10¹⁷ ms to settle) would otherwise run for hours of real time
/// or fill memory with drag steps. The defaults let any session a person
/// could perform run — an hour of virtual time, two million frames (over
/// nine hours of frames at 60 fps) — and stop a runaway script in well under
/// a second of real time.
public struct SimulationLimits: Hashable, Sendable {
    /// The latest virtual time anything may happen at, in ms; default
    /// 3,600,000 (an hour).
    public var maxVirtualMs: Milliseconds
    /// The most frames the carousel may draw; default 2,000,000.
    public var maxFrames: Int

    /// The default limits.
    public static let standard = SimulationLimits(maxVirtualMs: 3_600_000, maxFrames: 2_000_000)

    public init(maxVirtualMs: Milliseconds, maxFrames: Int) {
        self.maxVirtualMs = maxVirtualMs
        self.maxFrames = maxFrames
    }

    /// Checks that the limits themselves are usable numbers.
    public func validate() throws(SimulationLimitError) {
        guard maxVirtualMs.isFinite, maxVirtualMs >= 0 else {
            throw SimulationLimitError(.virtualTime, "the virtual-time limit must be a finite number of ms ≥ 0 (got \(maxVirtualMs))")
        }
        guard maxFrames >= 0 else {
            throw SimulationLimitError(.frames, "the frame limit must be ≥ 0 (got \(maxFrames))")
        }
    }
}

/// A simulation stopped at one of its ``SimulationLimits``: which limit, and
/// what would have crossed it. Raise the limit to run such a script.
public struct SimulationLimitError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The limit reached.
    public enum Limit: String, Hashable, Sendable {
        /// ``SimulationLimits/maxVirtualMs``.
        case virtualTime = "maxVirtualMs"
        /// ``SimulationLimits/maxFrames``.
        case frames = "maxFrames"
    }

    /// The limit reached.
    public let limit: Limit
    /// What happened, with the limit's value.
    public let reason: String

    public init(_ limit: Limit, _ reason: String) {
        self.limit = limit
        self.reason = reason
    }

    public var description: String { reason }
}
