import MapSync

/// A scroll script that cannot run: which event (numbered from 1, with its
/// time), and what is wrong with it. Nothing is simulated when one is thrown.
///
/// `event 3 (at 1400): scrollTo 12 is out of range: the list has 8 stores (0...7)`
public struct ScrollScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's position in `events`, from 1; nil for the script as a whole.
    public let event: Int?
    /// The event's time, when it could be read.
    public let at: Double?
    /// What is wrong, and where possible what to do.
    public let reason: String

    public init(_ reason: String, event: Int? = nil, at: Double? = nil) {
        self.reason = reason
        self.event = event
        self.at = at
    }

    public var description: String {
        guard let event else { return "scroll script: \(reason)" }
        let time = at.map { " (at \(Self.format($0)))" } ?? ""
        return "event \(event)\(time): \(reason)"
    }

    /// A time or length for a message: `1400`, `1400.5`.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
