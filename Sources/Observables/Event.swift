/// One notification of an observable sequence: a value, or the terminal error or completion.
///
/// The Rx grammar every sequence obeys is `next* (error | completed)?`: any
/// number of values, then at most one terminal event, then silence.
public enum Event<Element: Sendable>: Sendable {
    /// A value of the sequence.
    case next(Element)
    /// The sequence failed; nothing follows.
    case error(any Error)
    /// The sequence finished; nothing follows.
    case completed

    /// Whether this event ends the sequence (`error` or `completed`).
    @inlinable
    public var isTerminal: Bool {
        if case .next = self { return false }
        return true
    }

    /// The value carried by a `next` event, `nil` for a terminal event.
    @inlinable
    public var element: Element? {
        if case .next(let element) = self { return element }
        return nil
    }

    /// The error carried by an `error` event, `nil` otherwise.
    @inlinable
    public var error: (any Error)? {
        if case .error(let error) = self { return error }
        return nil
    }
}

extension Event: CustomStringConvertible {
    public var description: String {
        switch self {
        case .next(let element): "next(\(element))"
        case .error(let error): "error(\(error))"
        case .completed: "completed"
        }
    }
}
