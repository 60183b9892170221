/// The characters a list name or a store id may not hold: control
/// characters (Unicode general category Cc, NUL included), format
/// characters (Cf: bidirectional overrides and isolates, zero-width
/// characters, the soft hyphen…) and the line and paragraph separators (Zl,
/// Zp). None is visible, so two names that look the same could differ, a
/// bidirectional override could make a name read as another, and a NUL
/// cuts a name short wherever it meets C.
package enum NameCharacters {
    /// Why `text` cannot be a name, naming the first forbidden character
    /// (`U+0000, a control character`); nil when it can.
    package static func problem(in text: String) -> String? {
        // The common case, printable ASCII, without a look at the scalars'
        // properties.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return nil }
        for scalar in text.unicodeScalars {
            let kind: String
            switch scalar.properties.generalCategory {
            case .control: kind = "a control character"
            case .format: kind = "an invisible format character"
            case .lineSeparator: kind = "a line separator"
            case .paragraphSeparator: kind = "a paragraph separator"
            default: continue
            }
            return "\(code(scalar)), \(kind)"
        }
        return nil
    }

    /// `U+0000`: at least four hex digits, as Unicode writes code points.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Throws ``CatalogError/invalidArgument(_:)`` when `name` cannot name a
    /// list: blank, or holding a forbidden character.
    package static func checkListName(_ name: String) throws(CatalogError) {
        guard !name.allSatisfy(\.isWhitespace) else {
            throw .invalidArgument("a list needs a name that is not blank")
        }
        if let problem = problem(in: name) {
            throw .invalidArgument("a list name cannot hold \(problem)")
        }
    }
}
