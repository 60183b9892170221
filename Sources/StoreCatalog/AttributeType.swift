/// The type of a CSV or TSV attribute column, decided over the whole
/// column, or forced by the import's options.
///
/// As DuckDB's and pandas' CSV readers do, a column is a number type only
/// if every value in it is one: a single `02134` or `7A` keeps the whole
/// column text, so no value changes on its way through. Empty cells are no
/// value and do not count. A number is a JSON number literal (RFC 8259 §6):
/// `-12`, `4.5`, `1e5`; not `+1`, `.5`, `1.`, `0x1F`, `NaN`, nor a leading
/// zero such as `02134` (a code, not a quantity), nor a decimal past a
/// double's range (`1e400`).
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Whole numbers (`-?(0|[1-9][0-9]*)`), stored with every digit.
    case integer
    /// Any JSON number literal; a column of integers and decimals is this.
    case number
    /// `true` and `false`, in any case (`TRUE`, `False`).
    case boolean
    /// Strings, as written.
    case text

    public var description: String { rawValue }

    /// The type `text` fits, or nil; an empty cell fits none.
    static func of(_ text: some Collection<UInt8>) -> AttributeType? {
        guard !text.isEmpty else { return nil }
        if AttributeValue.Number.isLiteral(text) {
            guard text.contains(where: { $0 == 0x2E || $0 == 0x65 || $0 == 0x45 }) else { return .integer }
            // A decimal past a double's range (`1e400`) is text: JavaScript
            // and most JSON readers would take it as Infinity. Integers keep
            // every digit whatever their length.
            return Double(String(decoding: text, as: UTF8.self))?.isFinite == true ? .number : .text
        }
        return booleanValue(text) != nil ? .boolean : .text
    }

    /// `true`/`false` in any case; nil for anything else.
    static func booleanValue(_ text: some Collection<UInt8>) -> Bool? {
        guard text.count == 4 || text.count == 5 else { return nil }
        let lowered = text.map { $0 | 0x20 }  // ASCII letters to lowercase; other bytes will not match
        if lowered.elementsEqual("true".utf8) { return true }
        if lowered.elementsEqual("false".utf8) { return false }
        return nil
    }

    /// The narrowest type that holds values of both: integers and numbers
    /// make numbers; any other mix is text.
    func joined(with other: AttributeType) -> AttributeType {
        if self == other { return self }
        switch (self, other) {
        case (.integer, .number), (.number, .integer): return .number
        default: return .text
        }
    }

    /// `text` as a value of this type, or nil when it does not fit.
    func value(_ text: String) -> AttributeValue? {
        switch self {
        case .text: return .string(text)
        case .integer, .number:
            guard let type = AttributeType.of(text.utf8), type == self || (self == .number && type == .integer) else {
                return nil
            }
            return .number(AttributeValue.Number(checked: text))
        case .boolean: return AttributeType.booleanValue(text.utf8).map(AttributeValue.bool)
        }
    }
}
