/// Text from the data (store names, ids, list names) made safe to print to
/// a terminal: every control character is shown as an escape, never sent.
///
/// A store name holding ESC could otherwise clear the screen, retitle the
/// terminal or hide the rows after it (ECMA-48 control sequences), and a
/// right-to-left override could reorder a row. JSON output needs none of
/// this: JSON escapes control characters itself.
enum TerminalText {
    /// `text` with C0 controls, DEL, C1 controls and the bidirectional
    /// overrides and isolates written as `\n`, `\t`, `\r` or `\u{1B}`.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// C0 (U+0000–U+001F), DEL, C1 (U+0080–U+009F), and U+202A–U+202E,
    /// U+2066–U+2069 (bidi embeddings, overrides and isolates).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// ``TerminalText/escaped(_:)`` of this string.
    var terminalEscaped: String { TerminalText.escaped(self) }
}
