/// Numbers in `--json` output: exact.
///
/// A machine reading the output must get back the very Double the program
/// computed, so JSON carries the shortest decimal that parses back to it
/// (Swift's `description`, Steele & White / Ryu-style shortest round trip),
/// and whole values below 2^53 print without a fraction (`"t":0`,
/// `"zoom":16`). Tables round instead (``NumberFormatting``).
package enum JSONNumber {
    /// `value` as a JSON number that reads back to exactly `value`;
    /// `null` if it is not finite (JSON has no NaN or infinity).
    package static func exact(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        // 2^53: every integer up to here is a Double, and Int64 prints it whole.
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return String(Int64(value))  // also prints -0.0 as 0, which reads back equal
        }
        return value.description
    }

    /// An optional integer: the number, or `null`.
    package static func integer(_ value: Int?) -> String {
        value.map(String.init) ?? "null"
    }

    /// Whether `text` is a JSON number literal (RFC 8259 §6) of a finite
    /// Double: an attribute value such as `"1250"` or `"-3.5e2"` prints as
    /// a number, one such as `"007"`, `"+1"` or `"1e400"` stays a string.
    package static func isLiteral(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= 0x30 && $0 <= 0x39 }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        guard bytes.isEmpty else { return false }
        // Only an exponent or 309 digits can overflow a Double: parse those
        // alone (strtod per attribute showed in the server's profile).
        let mayOverflow = text.utf8.count > 300 || text.utf8.contains { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
        return !mayOverflow || (Double(text)?.isFinite ?? false)
    }
}
