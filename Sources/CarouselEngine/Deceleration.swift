/// How quickly a fling slows down: the fraction of its velocity kept per
/// millisecond, as `UIScrollView.DecelerationRate`.
public struct Deceleration: Hashable, Sendable {
    /// The velocity kept per millisecond, in (0, 1).
    public let rate: Double

    /// `UIScrollView.DecelerationRate.normal`: 0.998 per ms.
    public static let normal = Deceleration(uncheckedRate: 0.998)
    /// `UIScrollView.DecelerationRate.fast`: 0.99 per ms (what the carousel-effect and Instagram-paging articles set).
    public static let fast = Deceleration(uncheckedRate: 0.99)

    /// A custom rate; it must lie strictly between 0 and 1.
    public init(rate: Double) throws(LayoutError) {
        guard rate.isFinite, rate > 0, rate < 1 else {
            throw LayoutError("deceleration", "must be normal, fast or a rate in (0, 1)", rate)
        }
        self.rate = rate
    }

    /// Parses `normal`, `fast` or a number in (0, 1), as the CLI and scripts spell it.
    public init(parsing text: String) throws(LayoutError) {
        switch text {
        case "normal": self = .normal
        case "fast": self = .fast
        default:
            guard let rate = Double(text) else {
                throw LayoutError("deceleration", "must be normal, fast or a rate in (0, 1)", text)
            }
            try self.init(rate: rate)
        }
    }

    private init(uncheckedRate: Double) {
        rate = uncheckedRate
    }

    /// Where a fling released at `offset` with `velocity` (pt/ms) would come to
    /// rest with no snapping: `p = x + v·d / (1 − d)`, the sum of the geometric
    /// series of per-ms displacements (WWDC18 "Designing Fluid Interfaces").
    public func projectedOffset(from offset: Double, velocity: Double) -> Double {
        offset + velocity * rate / (1 - rate)
    }
}

extension Deceleration: CustomStringConvertible {
    /// `normal`, `fast`, or the rate.
    public var description: String {
        switch self {
        case .normal: "normal"
        case .fast: "fast"
        default: String(rate)
        }
    }
}

extension Deceleration: Codable {
    /// Decodes `"normal"`, `"fast"`, a numeric string or a bare number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            if let rate = try? container.decode(Double.self) {
                try self.init(rate: rate)
            } else {
                try self.init(parsing: container.decode(String.self))
            }
        } catch let error as LayoutError {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the preset's name, or the rate as a number.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .normal, .fast: try container.encode(description)
        default: try container.encode(rate)
        }
    }
}
