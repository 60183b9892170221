/// A mistake in an `opening_hours` expression, with the column (1-based, in
/// characters) where it was found.
public struct OpeningHoursError: Error, Hashable, Sendable, CustomStringConvertible {
    public var column: Int
    public var reason: String

    public init(column: Int, reason: String) {
        self.column = column
        self.reason = reason
    }

    public var description: String { "column \(column): \(reason)" }
}
