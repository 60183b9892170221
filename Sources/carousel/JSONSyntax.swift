/// Where a JSON document first breaks the grammar (RFC 8259), by line and
/// column, for scroll scripts: a decoder only says that the data "is not
/// valid JSON", and a script is edited by hand.
struct JSONSyntax {
    /// A syntax error: 1-based line and column (in characters), and why.
    struct Failure: Error, Equatable, CustomStringConvertible {
        var line: Int
        var column: Int
        var reason: String
        var description: String { "line \(line), column \(column): \(reason)" }
    }

    /// The first syntax error of `bytes`, nil for a well-formed document.
    /// Numbers too large for a Double (`1e400`) count as errors.
    static func firstError(in bytes: [UInt8]) -> Failure? {
        var scanner = JSONSyntax(bytes: bytes)
        do throws(Failure) {
            scanner.skipSpace()
            try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < bytes.count { throw scanner.failure("unexpected \(scanner.found) after the document") }
            return nil
        } catch {
            return error
        }
    }

    private let bytes: [UInt8]
    private var index = 0
    private static let maximumDepth = 512

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark is not part of the document.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// The byte at the index in words: `'x'` or "the end of the file".
    private var found: String {
        guard let byte = peek else { return "end of file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// A failure at the current index: its line, and its column counted in
    /// characters (UTF-8 continuation bytes do not count).
    private func failure(_ reason: String) -> Failure {
        var line = 1, column = 1
        for byte in bytes[..<min(index, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return Failure(line: line, column: column, reason: reason)
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(Failure) {
        skipSpace()
        guard peek == byte else { throw failure("expected \(what), found \(found)") }
        index += 1
    }

    private mutating func value(depth: Int) throws(Failure) {
        guard depth < Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        skipSpace()
        switch peek {
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return }
            repeat {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw failure("expected a member name in double quotes, found \(found)") }
                try string()
                try expect(UInt8(ascii: ":"), "':' after the member name")
                try value(depth: depth + 1)
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { throw failure("expected ',' or '}' in the object, found \(found)") }
        case UInt8(ascii: "["):
            index += 1
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return }
            repeat {
                try value(depth: depth + 1)
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")) else { throw failure("expected ',' or ']' in the array, found \(found)") }
        case UInt8(ascii: "\""):
            try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case let byte? where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte):
            try number()
        default:
            throw failure("expected a value, found \(found)")
        }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let utf8 = Array(word.utf8)
        guard bytes[index...].starts(with: utf8) else { throw failure("expected a value, found \(found)") }
        index += utf8.count
    }

    private mutating func string() throws(Failure) {
        index += 1  // the opening quote
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return
            case UInt8(ascii: "\\"):
                index += 1
                guard let escaped = peek else { break }
                if escaped == UInt8(ascii: "u") {
                    let hex = bytes[(index + 1)...].prefix(4)
                    guard hex.count == 4, hex.allSatisfy({ Self.isHex($0) }) else {
                        throw failure("expected 4 hex digits after \\u")
                    }
                    index += 5
                } else {
                    guard Array("\"\\/bfnrt".utf8).contains(escaped) else { throw failure("unknown escape \\\(found.dropFirst().dropLast())") }
                    index += 1
                }
            case ..<0x20:
                throw failure("a control character in a string (write it escaped, e.g. \\n)")
            default:
                index += 1
            }
        }
        throw failure("the string is not closed")
    }

    private static func isHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private mutating func number() throws(Failure) {
        let start = index
        func digits() -> Int {
            let from = index
            while let byte = peek, (0x30...0x39).contains(byte) { index += 1 }
            return index - from
        }
        _ = take(UInt8(ascii: "-"))
        if take(UInt8(ascii: "0")) {
            if let byte = peek, (0x30...0x39).contains(byte) { throw failure("a number with a leading zero") }
        } else if digits() == 0 {
            throw failure("expected digits, found \(found)")
        }
        if take(UInt8(ascii: ".")), digits() == 0 { throw failure("expected digits after the decimal point, found \(found)") }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            _ = take(UInt8(ascii: "+")) || take(UInt8(ascii: "-"))
            if digits() == 0 { throw failure("expected digits in the exponent, found \(found)") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if let value = Double(text), !value.isFinite {
            index = start
            throw failure("the number \(text) is too large for a Double")
        }
    }
}
