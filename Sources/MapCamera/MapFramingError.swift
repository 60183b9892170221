/// A framing parameter out of its range: which one, what it must be, and
/// what it was, on one line.
///
/// `parameter` is the library's name (`mapWidth`, `insets.bottom`); the CLI
/// and scroll scripts say it their own way with ``description(naming:)``.
public struct MapFramingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter's name in camelCase, as ``MapFraming`` spells it.
    public let parameter: String
    /// The allowed range or values, in words: `a finite number > 0`.
    public let requirement: String
    /// The offending value as given, if it is one value.
    public let value: String?

    public init(parameter: String, requirement: String, value: String? = nil) {
        self.parameter = parameter
        self.requirement = requirement
        self.value = value
    }

    public var description: String { description(naming: parameter) }

    /// The message with the parameter called `name` (`--map-width`, `map.mapWidth`).
    public func description(naming name: String) -> String {
        "\(name) must be \(requirement)" + (value.map { " (got \($0))" } ?? "")
    }

    /// A number for a message: `390`, `12.5`, `nan`.
    static func format(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
