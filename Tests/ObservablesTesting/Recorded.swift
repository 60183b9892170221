import Observables

/// An event and the virtual time it happened at: one bead of a marble
/// diagram (RxTest's `Recorded<Event<Element>>`).
///
/// Used both ways: as timed inputs fed to `VirtualTimeScheduler.hotObservable(_:)`
/// and as the recorded outputs of an `EventRecorder`, so a test reads
/// `[.next(0, "A"), .completed(300)]` → `[.next(250, "A"), .completed(300)]`.
public struct Recorded<Value: Sendable>: Sendable {
    /// When the event happened, in milliseconds of virtual time.
    public let time: Milliseconds
    /// What happened.
    public let event: Event<Value>

    /// An event at `time`.
    public init(time: Milliseconds, event: Event<Value>) {
        self.time = time
        self.event = event
    }

    /// A value at `time`.
    public static func next(_ time: Milliseconds, _ value: Value) -> Recorded {
        Recorded(time: time, event: .next(value))
    }

    /// A completion at `time`.
    public static func completed(_ time: Milliseconds) -> Recorded {
        Recorded(time: time, event: .completed)
    }

    /// An error at `time`.
    public static func error(_ time: Milliseconds, _ error: any Error) -> Recorded {
        Recorded(time: time, event: .error(error))
    }

    /// Values at the given times: a timeline written as `[(time, value)]`.
    public static func values(_ timeline: [(Milliseconds, Value)]) -> [Recorded] {
        timeline.map { .next($0.0, $0.1) }
    }
}

extension Recorded: Equatable where Value: Equatable {
    /// Same time and same event; errors are equal when they have the same
    /// type and description (`any Error` has no `==`).
    public static func == (lhs: Recorded, rhs: Recorded) -> Bool {
        guard lhs.time == rhs.time else { return false }
        switch (lhs.event, rhs.event) {
        case let (.next(left), .next(right)):
            return left == right
        case let (.error(left), .error(right)):
            return type(of: left) == type(of: right) && "\(left)" == "\(right)"
        case (.completed, .completed):
            return true
        default:
            return false
        }
    }
}

extension Recorded: CustomStringConvertible {
    /// `250: next(B)`; fractional times (frames fall every 1000/60 ms) to the microsecond.
    public var description: String {
        "\(Recorded.format(time)): \(event)"
    }

    private static func format(_ time: Milliseconds) -> String {
        let rounded = (time * 1000).rounded() / 1000
        let isWhole = rounded == rounded.rounded() && abs(rounded) < 1e15
        return isWhole ? String(Int64(rounded)) : String(rounded)
    }
}
