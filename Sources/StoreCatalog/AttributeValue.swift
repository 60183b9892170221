/// The value of one store attribute, typed as its input gave it: a JSON
/// value, with numbers kept as the digits written.
///
/// JSON, JSON Lines and GeoJSON values come in as they are. A CSV or TSV
/// cell is text until the import has seen its whole column: a column whose
/// every value is a number becomes numbers, one of `true`/`false` booleans,
/// anything else stays text (see ``AttributeType``).
///
/// A number is never turned into a `Double`: a 23-digit code keeps its 23
/// digits, and `4.50` stays `4.50`, so a file comes back as it went in.
public enum AttributeValue: Sendable, Hashable {
    case string(String)
    case number(Number)
    case bool(Bool)
    case null
    case array([AttributeValue])
    /// Members by name; written back with the names sorted (JSON objects
    /// are unordered, RFC 8259 §4).
    case object([String: AttributeValue])

    /// A JSON number, as its literal text (RFC 8259 §6).
    public struct Number: Sendable, Hashable, CustomStringConvertible {
        /// The literal as written: `-12`, `4.50`, `1e5`, `12345678901234567890123`.
        public let text: String

        /// `text` if it is a JSON number literal; nil otherwise (`+1`,
        /// `.5`, `007`, `NaN`, `1e` are not).
        public init?(_ text: String) {
            guard Self.isLiteral(text.utf8) else { return nil }
            self.text = text
        }

        /// A literal the caller has checked (the import's readers).
        init(checked text: String) {
            self.text = text
        }

        /// A whole number, written in full.
        public init(_ value: Int) {
            text = String(value)
        }

        /// The number rounded to the nearest `Double` (digits past 17 are lost).
        public var doubleValue: Double { Double(text) ?? .nan }

        /// Whether the literal has no fraction and no exponent: `-12`, not
        /// `12.0` or `1e2`.
        public var isInteger: Bool { !text.utf8.contains { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 } }

        public var description: String { text }

        /// RFC 8259 §6: `-? (0 | [1-9] d*) (. d+)? ([eE] [+-]? d+)?`.
        static func isLiteral(_ bytes: some Collection<UInt8>) -> Bool {
            var rest = bytes[...]
            func digits() -> Int {
                let count = rest.prefix(while: { $0 &- 0x30 < 10 }).count
                rest = rest.dropFirst(count)
                return count
            }
            if rest.first == 0x2D { rest = rest.dropFirst() }  // -
            guard let first = rest.first else { return false }
            if first == 0x30 {  // 0, no more leading digits
                rest = rest.dropFirst()
            } else if digits() == 0 {
                return false
            }
            if rest.first == 0x2E {  // .
                rest = rest.dropFirst()
                guard digits() > 0 else { return false }
            }
            if rest.first == 0x65 || rest.first == 0x45 {  // e E
                rest = rest.dropFirst()
                if rest.first == 0x2B || rest.first == 0x2D { rest = rest.dropFirst() }
                guard digits() > 0 else { return false }
            }
            return rest.isEmpty
        }

        /// The value as (sign, significant digits, exponent of the last
        /// digit): `4.50`, `45e-1` and `0.45e1` all give (+, "45", -1), so
        /// equal numbers compare equal however they are written, exactly
        /// (no `Double` rounding: two 23-digit codes differing in the last
        /// digit differ). Nil when the exponent does not fit an `Int`.
        func normalized() -> (negative: Bool, digits: [UInt8], exponent: Int)? {
            var bytes = Array(text.utf8)[...]
            let negative = bytes.first == 0x2D
            if negative { bytes = bytes.dropFirst() }
            var digits: [UInt8] = []
            var exponent = 0
            var inFraction = false
            while let byte = bytes.first, byte != 0x65, byte != 0x45 {
                bytes = bytes.dropFirst()
                if byte == 0x2E {
                    inFraction = true
                    continue
                }
                digits.append(byte)
                if inFraction { exponent -= 1 }
            }
            if !bytes.isEmpty {
                // The exponent's digits; a literal has at least one.
                guard let written = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)) else { return nil }
                let (sum, overflow) = exponent.addingReportingOverflow(written)
                guard !overflow else { return nil }
                exponent = sum
            }
            digits.removeFirst(digits.prefix { $0 == 0x30 }.count)
            guard !digits.isEmpty else { return (false, [], 0) }  // zero, whatever its sign
            let trailingZeros = digits.reversed().prefix { $0 == 0x30 }.count
            digits.removeLast(trailingZeros)
            let (shifted, overflow) = exponent.addingReportingOverflow(trailingZeros)
            guard !overflow else { return nil }
            return (negative, digits, shifted)
        }
    }

    /// The value as the text of a CSV cell or a filter compares it with:
    /// a string as itself, a number as its digits, `true`/`false`, compact
    /// JSON for arrays and objects; nil for null.
    public var text: String? {
        switch self {
        case .string(let string): string
        case .number(let number): number.text
        case .bool(let value): value ? "true" : "false"
        case .null: nil
        case .array, .object: AttributesJSON.text(of: self)
        }
    }

    /// The string, if the value is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }
}

extension AttributeValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension AttributeValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension AttributeValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .number(Number(value))
    }
}

extension AttributeValue: CustomStringConvertible {
    /// The value as JSON.
    public var description: String { AttributesJSON.text(of: self) }
}

extension AttributeValue: Codable {
    /// Through `Codable`, numbers go through Foundation's number types, so
    /// one with more digits than a `Double` holds is rounded; the catalog
    /// and the JSON of the CLI and server never take this path.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .number(Number(checked: String(value)))
        } else if let value = try? container.decode(Double.self), value.isFinite {
            self = .number(Number(checked: "\(value)"))
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AttributeValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AttributeValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let string): try container.encode(string)
        case .number(let number):
            if number.isInteger, let whole = Int64(number.text) {
                try container.encode(whole)
            } else {
                try container.encode(number.doubleValue)
            }
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}
