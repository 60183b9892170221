/// A layout that cannot exist: which setting is wrong, why, and the value
/// that was given.
///
/// Thrown by ``CarouselLayout``'s initializer, ``LayoutSpec/layout(dataCount:)``
/// and ``CarouselLayout/release(at:velocity:dragStart:)``: bad input is an
/// error, never a crash.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The setting's name as a script spells it (`viewport`, `minScale`, …).
    public let parameter: String
    /// What the setting must be, e.g. "must be a finite number ≥ 0".
    public let requirement: String
    /// The rejected value as text, if there was one.
    public let value: String?

    public init(_ parameter: String, _ requirement: String, _ value: (any CustomStringConvertible)? = nil) {
        self.parameter = parameter
        self.requirement = requirement
        self.value = value.map { String(describing: $0) }
    }

    public var description: String {
        let got = value.map { " (got \($0))" } ?? ""
        return "invalid layout: \(parameter) \(requirement)\(got)"
    }
}

extension LayoutError {
    static func requireFinite(_ value: Double, _ parameter: String) throws(LayoutError) {
        guard value.isFinite else { throw LayoutError(parameter, "must be a finite number", value) }
    }

    static func requireNonNegative(_ value: Double, _ parameter: String) throws(LayoutError) {
        guard value.isFinite, value >= 0 else {
            throw LayoutError(parameter, "must be a finite number ≥ 0", value)
        }
    }

    static func requireNonNegative(_ value: Double, _ parameter: String, atMost limit: Double) throws(LayoutError) {
        guard value.isFinite, value >= 0, value <= limit else {
            throw LayoutError(parameter, "must be a number of points in 0...\(format(limit))", value)
        }
    }

    /// A viewport or item length: in ``CarouselLayout/minLength`` ... ``CarouselLayout/maxLength``.
    static func requireLength(_ value: Double, _ parameter: String) throws(LayoutError) {
        guard value.isFinite, value >= CarouselLayout.minLength, value <= CarouselLayout.maxLength else {
            throw LayoutError(
                parameter,
                "must be a number of points in \(format(CarouselLayout.minLength))...\(format(CarouselLayout.maxLength))",
                value)
        }
    }

    /// `0.001`, `1000000000`: a bound as a person writes it.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func requirePositive(_ value: Double, _ parameter: String) throws(LayoutError) {
        guard value.isFinite, value > 0 else {
            throw LayoutError(parameter, "must be a finite number > 0", value)
        }
    }
}
