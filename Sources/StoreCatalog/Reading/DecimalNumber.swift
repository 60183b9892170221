/// Parses decimal numbers straight from UTF-8 bytes: the coordinates of every
/// row, so this is the hot path of an import.
///
/// The grammar is plain decimal only, `[+-]? (d+ [. d*] | . d+) ([eE] [+-]? d+)?`,
/// so `nan`, `inf`, `infinity` and hex floats are refused before any
/// conversion (`Double("nan")` would accept them).
package enum DecimalNumber {
    /// The value of `text`, or nil when it is not a decimal number. Values
    /// beyond the range of `Double` come back infinite: the caller rejects
    /// them as not finite.
    @inline(__always)
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = text.count
        var index = 0
        var negative = false
        if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }

        // Up to 19 significant digits fit a UInt64; further digits only move
        // the decimal exponent and send the text to the exact slow path.
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var exponent = 0
        var sawDigit = false
        var truncated = false
        while index < count, let digit = digitValue(text[index]) {
            sawDigit = true
            if mantissa == 0 && digit == 0 {
                // A leading zero adds nothing.
            } else if significantDigits < 19 {
                mantissa = mantissa &* 10 &+ digit
                significantDigits += 1
            } else {
                exponent += 1
                truncated = true
            }
            index += 1
        }
        if index < count, text[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, let digit = digitValue(text[index]) {
                sawDigit = true
                if mantissa == 0 && digit == 0 {
                    exponent -= 1
                } else if significantDigits < 19 {
                    mantissa = mantissa &* 10 &+ digit
                    significantDigits += 1
                    exponent -= 1
                } else {
                    truncated = true
                }
                index += 1
            }
        }
        guard sawDigit else { return nil }

        if index < count, text[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var exponentNegative = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            var written = 0
            var sawExponentDigit = false
            while index < count, let digit = digitValue(text[index]) {
                sawExponentDigit = true
                // Far beyond any Double already; the cap only avoids overflow.
                written = min(written * 10 + Int(digit), 100_000)
                index += 1
            }
            guard sawExponentDigit else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == count else { return nil }

        if mantissa == 0 { return negative ? -0.0 : 0.0 }
        // Clinger's fast path (Clinger 1990, "How to read floating point
        // numbers accurately"): an integer below 2^53 and a power of ten up to
        // 10^22 are both exact doubles, so one IEEE multiply or divide rounds
        // correctly. That covers every coordinate written with ≤ 15 digits.
        if !truncated, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            value = exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
            return negative ? -value : value
        }
        // The rare long or tiny number: the standard library's correctly
        // rounded conversion (safe now that the grammar has been checked).
        let slow = Double(String(decoding: text, as: UTF8.self))
        return slow ?? (negative ? -.infinity : .infinity)
    }

    /// Whether `text` (trimmed) spells a non-finite value some tools write:
    /// nan, inf, infinity, with any case and sign. For a precise message.
    package static func spellsNonFinite(_ text: String) -> Bool {
        var word = Substring(text.lowercased())
        if word.first == "-" || word.first == "+" { word = word.dropFirst() }
        return word == "nan" || word == "inf" || word == "infinity"
    }

    @inline(__always)
    private static func digitValue(_ byte: UInt8) -> UInt64? {
        let digit = byte &- UInt8(ascii: "0")
        return digit < 10 ? UInt64(digit) : nil
    }

    /// 10^0 … 10^22, each exactly representable as a Double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
