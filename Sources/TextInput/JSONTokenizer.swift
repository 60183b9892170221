/// The package's one JSON reader (RFC 8259), streaming over a `ByteReader`.
///
/// Store imports walk arrays and objects with it and pull values straight
/// into a `RawFields`, so no document tree is ever built and the file is
/// never loaded whole. Scroll scripts, session messages and request bodies
/// read each small document (a script's event, a message) as a
/// ``JSONValue`` through it. Every syntax error names its line and column.
package struct JSONTokenizer {
    /// Why reading stopped.
    package enum Failure: Error {
        /// The text is not JSON at `line` and `column` (1-based bytes).
        case syntax(line: Int, column: Int, reason: String)
        /// An object names member `name` twice (``JSONValue`` reads; a
        /// reader of ours says so in its own words).
        case duplicateMember(line: Int, column: Int, name: String)
        /// The input could not be read (an ``InputError``), or its reader
        /// stopped it for a reason of its own (the store catalog's
        /// `ImportFileError`: not a FeatureCollection…).
        case file(any Error)
    }

    /// What a value turned out to be.
    package enum ValueKind: String {
        case string, number, boolean, null, object, array
    }

    private var reader: ByteReader
    /// The line of the next byte.
    package private(set) var line = 1
    /// The file offset of the current line's first byte.
    private var lineStart = 0
    /// The column of the next byte: 1-based, in bytes from the line's start.
    package var column: Int { reader.offset - lineStart + 1 }
    /// JSON Lines: a line break ends a value. Whitespace skipping stops at LF
    /// and a value still open there is malformed, so the next line can start
    /// afresh.
    package var stopsAtLineBreaks = false

    /// Inside `skipValue`: strings are checked for UTF-8 here, since what is
    /// skipped never reaches the row validator.
    private var isSkipping = false

    /// Nesting deeper than this is refused rather than risk the stack.
    package static let maximumDepth = 512

    /// Whether an object that names a member twice is refused. RFC 8259 §4
    /// leaves the meaning of duplicate names open, and every reader of ours
    /// refuses them (an imported file, a scroll script, a message): the
    /// JSON conformance suite, which takes them as valid syntax, turns this
    /// off.
    package var refusesDuplicateMembers = true

    package init(reader: ByteReader) {
        self.reader = reader
    }

    // MARK: Bytes

    /// Marks the start of a row on the current line (``ByteReader/startRow(line:)``).
    package mutating func startRow() {
        reader.startRow(line: line)
    }

    @inline(__always)
    private mutating func peek() throws(Failure) -> UInt8? {
        do { return try reader.peek() } catch { throw .file(error) }
    }

    @inline(__always)
    private mutating func advance() {
        reader.advance()
    }

    /// The next byte that is not whitespace, unconsumed; nil at the end of
    /// the file. With `stopsAtLineBreaks` a LF is returned, not skipped,
    /// unless `acrossLines`.
    package mutating func skipWhitespace(acrossLines: Bool = false) throws(Failure) -> UInt8? {
        while let byte = try peek() {
            switch byte {
            case UInt8(ascii: "\n"):
                if stopsAtLineBreaks && !acrossLines { return byte }
                line += 1
                lineStart = reader.offset + 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                break
            default:
                return byte
            }
            advance()
        }
        return nil
    }

    /// Consumes `byte` if it is the next non-whitespace byte.
    package mutating func consume(_ byte: UInt8) throws(Failure) -> Bool {
        guard try skipWhitespace() == byte else { return false }
        advance()
        return true
    }

    /// Consumes `byte` as the next non-whitespace byte, or fails naming what
    /// was `expected`.
    package mutating func expect(_ byte: UInt8, _ expected: String) throws(Failure) {
        let found = try skipWhitespace()
        guard found == byte else { throw unexpected(found, expected: expected) }
        advance()
    }

    /// Skips the rest of the line and its LF: where JSON Lines resumes after
    /// a malformed line.
    package mutating func skipLine() throws(Failure) {
        while let byte = try peek() {
            advance()
            if byte == UInt8(ascii: "\n") {
                line += 1
                lineStart = reader.offset
                return
            }
        }
    }

    /// The failure for finding `byte` where `expected` should be.
    package func unexpected(_ byte: UInt8?, expected: String) -> Failure {
        .syntax(line: line, column: column, reason: "expected \(expected), found \(Self.describe(byte))")
    }

    private static func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "the end of the file" }
        switch byte {
        case UInt8(ascii: "\n"): return "the end of the line"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    // MARK: Structure

    /// Steps to the next member of an object whose `{` is consumed: appends
    /// its key (unescaped) to `keys` as one field and consumes the `:`;
    /// false after the closing `}`. `isFirst` starts true for each object.
    package mutating func nextMember(isFirst: inout Bool, keys: inout RawFields) throws(Failure) -> Bool {
        if try consume(UInt8(ascii: "}")) { return false }
        if !isFirst { try expect(UInt8(ascii: ","), "',' or '}' after a member") }
        isFirst = false
        let found = try skipWhitespace()
        guard found == UInt8(ascii: "\"") else { throw unexpected(found, expected: "a member name in quotes") }
        advance()
        try readStringContents(into: &keys, checkingUTF8: true)
        keys.endField()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return true
    }

    /// Steps to the next element of an array whose `[` is consumed; false
    /// after the closing `]`.
    package mutating func nextElement(isFirst: inout Bool) throws(Failure) -> Bool {
        if try consume(UInt8(ascii: "]")) { return false }
        if !isFirst { try expect(UInt8(ascii: ","), "',' or ']' after an element") }
        isFirst = false
        return true
    }

    // MARK: Values

    /// Reads the next value and appends its text to the field being built in
    /// `fields`: strings unescaped, numbers and `true`/`false` as written,
    /// `null` as nothing, objects and arrays as compact JSON text (whitespace
    /// outside strings dropped, strings as written).
    @discardableResult
    package mutating func readValue(into fields: inout RawFields) throws(Failure) -> ValueKind {
        switch try skipWhitespace() {
        case UInt8(ascii: "\""):
            advance()
            try readStringContents(into: &fields)
            return .string
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let kind: ValueKind = try peek() == UInt8(ascii: "{") ? .object : .array
            try capture(into: &fields, depth: 0)
            return kind
        case UInt8(ascii: "n"):
            try readLiteral("null", into: &fields, keeping: false)
            return .null
        case UInt8(ascii: "t"):
            try readLiteral("true", into: &fields)
            return .boolean
        case UInt8(ascii: "f"):
            try readLiteral("false", into: &fields)
            return .boolean
        case let byte:
            guard byte == UInt8(ascii: "-") || byte.map(Self.isDigit) == true else {
                throw unexpected(byte, expected: "a value")
            }
            try readNumber(into: &fields)
            return .number
        }
    }

    /// Copies the next value as compact JSON text (see `readValue`).
    private mutating func capture(into fields: inout RawFields, depth: Int) throws(Failure) {
        guard depth < Self.maximumDepth else {
            throw .syntax(line: line, column: column, reason: "nesting deeper than \(Self.maximumDepth) levels")
        }
        switch try skipWhitespace() {
        case UInt8(ascii: "{"):
            advance()
            fields.append(UInt8(ascii: "{"))
            var first = true
            // RFC 8259 §4 leaves duplicate names' meaning open: refuse them.
            var names = RawFields()
            while true {
                if try consume(UInt8(ascii: "}")) { break }
                if !first {
                    try expect(UInt8(ascii: ","), "',' or '}' after a member")
                    fields.append(UInt8(ascii: ","))
                }
                first = false
                let found = try skipWhitespace()
                guard found == UInt8(ascii: "\"") else { throw unexpected(found, expected: "a member name in quotes") }
                let nameColumn = column
                let decoded = try captureString(into: &fields)
                names.append(contentsOf: decoded.bytes)
                names.endField()
                if refusesDuplicateMembers, let duplicate = names.duplicateOfLastField() {
                    throw .syntax(
                        line: line, column: nameColumn, reason: "duplicate member \(duplicate) at column \(nameColumn): each name may appear once in an object")
                }
                try expect(UInt8(ascii: ":"), "':' after a member name")
                fields.append(UInt8(ascii: ":"))
                try capture(into: &fields, depth: depth + 1)
            }
            fields.append(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            advance()
            fields.append(UInt8(ascii: "["))
            var first = true
            while true {
                let isFirst = first
                guard try nextElement(isFirst: &first) else { break }
                if !isFirst { fields.append(UInt8(ascii: ",")) }
                try capture(into: &fields, depth: depth + 1)
            }
            fields.append(UInt8(ascii: "]"))
        case UInt8(ascii: "\""):
            try captureString(into: &fields)
        default:
            // Scalars read the same captured or not ("null" stays "null").
            if try skipWhitespace() == UInt8(ascii: "n") {
                try readLiteral("null", into: &fields)
            } else {
                try readValue(into: &fields)
            }
        }
    }

    /// Skips the next value, whatever it is — still refusing what is not
    /// JSON, invalid UTF-8 included: no validator sees these bytes later.
    package mutating func skipValue() throws(Failure) {
        var scratch = RawFields()
        isSkipping = true
        defer { isSkipping = false }
        try capture(into: &scratch, depth: 0)
    }

    // MARK: Scalars

    /// Reads a string after its opening quote, through its closing quote,
    /// appending the unescaped bytes.
    ///
    /// With `checkingUTF8` (member names, skipped values) the text must be
    /// UTF-8 (RFC 8259 §8.1): a string that is not is refused with its line
    /// and column, rather than turned into U+FFFD. Values that become fields
    /// are checked by the row validator, which names their column.
    private mutating func readStringContents(into fields: inout RawFields, checkingUTF8: Bool = false) throws(Failure) {
        let start = fields.bytes.count
        let startColumn = column - 1  // the opening quote's
        while true {
            try copyPlainStringBytes(into: &fields)
            guard let byte = try peek() else { throw unterminatedString() }
            // A control character stays unconsumed: JSON Lines resumes right
            // after the line break it may be.
            guard byte >= 0x20 else { throw controlCharacter(byte) }
            advance()
            if byte == UInt8(ascii: "\"") { break }
            try readEscape(into: &fields)
        }
        guard checkingUTF8 else { return }
        let isUTF8 = fields.bytes.withUnsafeBufferPointer { bytes in
            UTF8Text.isWellFormed(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
        guard isUTF8 else {
            throw .syntax(line: line, column: startColumn, reason: "the string at column \(startColumn) is not valid UTF-8: save the file as UTF-8")
        }
    }

    /// Copies a string as JSON text: decoded (which checks it), then written
    /// back with only the escapes JSON requires, so `"\u0041"` and `"A"` are
    /// captured alike.
    @discardableResult
    private mutating func captureString(into fields: inout RawFields) throws(Failure) -> RawFields {
        advance()
        var decoded = RawFields()
        try readStringContents(into: &decoded, checkingUTF8: isSkipping)
        fields.append(UInt8(ascii: "\""))
        for byte in decoded.bytes {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                fields.append(UInt8(ascii: "\\"))
                fields.append(byte)
            case 0x0A: fields.append(contentsOf: #"\n"#.utf8)
            case 0x0D: fields.append(contentsOf: #"\r"#.utf8)
            case 0x09: fields.append(contentsOf: #"\t"#.utf8)
            case ..<0x20: fields.append(contentsOf: "\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".utf8)
            default: fields.append(byte)
            }
        }
        fields.append(UInt8(ascii: "\""))
        return decoded
    }

    /// Copies the run of bytes that need no attention: not a quote, not a
    /// backslash, not a control character.
    @inline(__always)
    private mutating func copyPlainStringBytes(into fields: inout RawFields) throws(Failure) {
        do {
            try fields.withBytes { (bytes) throws(InputError) in
                try reader.copy(into: &bytes) { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
            }
        } catch {
            throw .file(error)
        }
    }

    /// Decodes the escape after a backslash (RFC 8259 §7), including
    /// `\uD83D\uDE00` surrogate pairs, and appends its UTF-8.
    private mutating func readEscape(into fields: inout RawFields) throws(Failure) {
        guard let byte = try peek() else { throw unterminatedString() }
        advance()
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): fields.append(byte)
        case UInt8(ascii: "b"): fields.append(0x08)
        case UInt8(ascii: "f"): fields.append(0x0C)
        case UInt8(ascii: "n"): fields.append(0x0A)
        case UInt8(ascii: "r"): fields.append(0x0D)
        case UInt8(ascii: "t"): fields.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try readHexUnit()
            var scalar: Unicode.Scalar?
            if UTF16.isLeadSurrogate(unit) {
                guard try peek() == UInt8(ascii: "\\") else { throw loneSurrogate() }
                advance()
                guard try peek() == UInt8(ascii: "u") else { throw loneSurrogate() }
                advance()
                let trail = try readHexUnit()
                guard UTF16.isTrailSurrogate(trail) else { throw loneSurrogate() }
                // UTF-16 pair → scalar: 0x10000 + (lead − D800) × 400 + (trail − DC00).
                scalar = Unicode.Scalar(0x10000 + (UInt32(unit) - 0xD800) << 10 + (UInt32(trail) - 0xDC00))
            } else {
                scalar = Unicode.Scalar(unit)
            }
            guard let scalar else { throw loneSurrogate() }
            for unit in UTF8.encode(scalar)! { fields.append(unit) }
        default:
            throw .syntax(line: line, column: column, reason: "invalid escape '\\\(Character(Unicode.Scalar(byte)))' in a string")
        }
    }

    /// The four hex digits of a `\u` escape.
    private mutating func readHexUnit() throws(Failure) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = try peek()
            guard let byte, let digit = Self.hexValue(byte) else {
                throw unexpected(byte, expected: "four hex digits after \\u")
            }
            advance()
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// A number as RFC 8259 §6 writes it: `-? (0 | [1-9] d*) (. d+)? ([eE] [+-]? d+)?`.
    private mutating func readNumber(into fields: inout RawFields) throws(Failure) {
        if try peek() == UInt8(ascii: "-") {
            advance()
            fields.append(UInt8(ascii: "-"))
        }
        if try peek() == UInt8(ascii: "0") {
            advance()
            fields.append(UInt8(ascii: "0"))
        } else {
            try readDigits(into: &fields)
        }
        if try peek() == UInt8(ascii: ".") {
            advance()
            fields.append(UInt8(ascii: "."))
            try readDigits(into: &fields)
        }
        if let byte = try peek(), byte | 0x20 == UInt8(ascii: "e") {
            advance()
            fields.append(byte)
            if let sign = try peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                advance()
                fields.append(sign)
            }
            try readDigits(into: &fields)
        }
    }

    /// One or more digits.
    private mutating func readDigits(into fields: inout RawFields) throws(Failure) {
        var count = 0
        while let byte = try peek(), Self.isDigit(byte) {
            advance()
            fields.append(byte)
            count += 1
        }
        guard count > 0 else { throw unexpected(try peek(), expected: "a digit") }
    }

    /// Reads the literal `word` (`true`, `false`, `null`), appending it
    /// when `keeping`.
    private mutating func readLiteral(_ word: String, into fields: inout RawFields, keeping: Bool = true) throws(Failure) {
        for expected in word.utf8 {
            let byte = try peek()
            guard byte == expected else { throw unexpected(byte, expected: "'\(word)'") }
            advance()
            if keeping { fields.append(expected) }
        }
    }

    // MARK: Failures and classes

    private func unterminatedString() -> Failure {
        .syntax(line: line, column: column, reason: "unterminated string: the file ends before its closing quote")
    }

    private func controlCharacter(_ byte: UInt8) -> Failure {
        .syntax(
            line: line, column: column,
            reason: byte == UInt8(ascii: "\n")
                ? "line break inside a string: write it as \\n"
                : "control character \(Self.describe(byte)) inside a string: escape it")
    }

    private func loneSurrogate() -> Failure {
        .syntax(line: line, column: column, reason: "lone UTF-16 surrogate in a \\u escape: characters above U+FFFF need a \\uD8xx\\uDCxx pair")
    }

    @inline(__always)
    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
