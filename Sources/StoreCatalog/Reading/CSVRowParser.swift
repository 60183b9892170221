import TextInput

/// Splits delimited text into records, RFC 4180 style, byte by byte.
///
/// Quoted fields may hold the delimiter, doubled quotes (`""` → `"`) and line
/// breaks; records end at LF, CRLF or a lone CR (classic Mac OS line
/// endings: a file written that way would otherwise be one long header line
/// whose fields repeat); a record that spans lines is numbered by the line
/// where it starts; empty lines are skipped. Spaces before an
/// opening quote or after a closing one are ignored, since values are
/// trimmed anyway. The same rules serve TSV, as spreadsheets quote TSV the
/// same way.
package struct CSVRowParser {
    /// What `nextRecord(into:)` found.
    package enum Outcome: Equatable {
        /// A record is in the fields.
        case record
        /// A quoted field opened on `line` runs to the end of the file; the
        /// rest of the file is swallowed by it, so parsing stops.
        case unterminatedQuote(line: Int)
        /// No more records.
        case end
    }

    private var reader: ByteReader
    private let delimiter: UInt8
    /// The line of the next byte.
    private var line = 1
    /// The 0-based fields of the last record with text after their closing
    /// quote (`"ab"c`): kept as written, reported by the caller.
    package private(set) var fieldsWithTextAfterQuote: [Int] = []

    package init(reader: ByteReader, delimiter: UInt8) {
        self.reader = reader
        self.delimiter = delimiter
    }

    private static let quote = UInt8(ascii: "\"")
    private static let newline = UInt8(ascii: "\n")
    private static let carriageReturn = UInt8(ascii: "\r")

    /// Reads the next record into `fields` (emptied first).
    package mutating func nextRecord(into fields: inout RawFields) throws(ImportFileError) -> Outcome {
        do throws(InputError) {
            return try readRecord(into: &fields)
        } catch {
            throw ImportFileError(error)
        }
    }

    private mutating func readRecord(into fields: inout RawFields) throws(InputError) -> Outcome {
        fields.removeAll()
        fieldsWithTextAfterQuote.removeAll(keepingCapacity: true)
        guard try skipEmptyLines() else { return .end }
        fields.line = line
        reader.startRow(line: line)

        while true {
            try skipPadding()
            var ending = FieldEnding.none
            if try reader.consume(Self.quote) {
                let openedOn = line
                guard try readQuoted(into: &fields) else { return .unterminatedQuote(line: openedOn) }
                try skipPadding()
                ending = try fieldEnding()
                if ending == .none {
                    // `"ab"c`: keep the rest as written and let the caller report it.
                    fieldsWithTextAfterQuote.append(fields.count)
                    try readUnquoted(into: &fields)
                }
            } else {
                try readUnquoted(into: &fields)
            }
            fields.endField()
            if ending == .none { ending = try fieldEnding() }
            // `readUnquoted` stops only where a field ends, so `.none` cannot
            // come twice.
            guard ending == .delimiter else { return .record }
        }
    }

    private enum FieldEnding { case delimiter, recordEnd, none }

    /// Consumes what ends a field, if it comes next: the delimiter, or the
    /// record's end (LF, CRLF, a final CR, the end of the file).
    private mutating func fieldEnding() throws(InputError) -> FieldEnding {
        guard let byte = try reader.peek() else { return .recordEnd }
        if byte == delimiter {
            reader.advance()
            return .delimiter
        }
        if byte == Self.newline {
            reader.advance()
            line += 1
            return .recordEnd
        }
        if byte == Self.carriageReturn {
            // CRLF, or a lone CR: either ends the line.
            reader.advance()
            _ = try reader.consume(Self.newline)
            line += 1
            return .recordEnd
        }
        return .none
    }

    /// Skips LF / CRLF lines with nothing on them; false at the end of file.
    private mutating func skipEmptyLines() throws(InputError) -> Bool {
        while let byte = try reader.peek() {
            if byte == Self.newline {
                reader.advance()
                line += 1
            } else if byte == Self.carriageReturn {
                // CRLF or a lone CR: an empty line either way.
                reader.advance()
                _ = try reader.consume(Self.newline)
                line += 1
            } else {
                return true
            }
        }
        return false
    }

    /// Skips spaces (and tabs, unless tab is the delimiter) around quotes.
    @inline(__always)
    private mutating func skipPadding() throws(InputError) {
        while let byte = try reader.peek(), byte == 0x20 || (byte == 0x09 && delimiter != 0x09) {
            reader.advance()
        }
    }

    /// Reads an unquoted field up to the delimiter or the line's end (LF or
    /// CR), left unconsumed.
    @inline(__always)
    private mutating func readUnquoted(into fields: inout RawFields) throws(InputError) {
        let delimiter = delimiter
        try fields.withBytes { (bytes) throws(InputError) in
            try reader.copy(into: &bytes) { $0 == delimiter || $0 == Self.newline || $0 == Self.carriageReturn }
        }
    }

    /// Reads a quoted field after its opening quote, through its closing
    /// quote; false when the file ends first.
    private mutating func readQuoted(into fields: inout RawFields) throws(InputError) -> Bool {
        while true {
            try fields.withBytes { (bytes) throws(InputError) in
                try reader.copy(into: &bytes) { $0 == Self.quote || $0 == Self.newline || $0 == Self.carriageReturn }
            }
            guard let byte = try reader.next() else { return false }
            if byte == Self.newline {
                line += 1
                fields.append(byte)
            } else if byte == Self.carriageReturn {
                // Data inside quotes; CRLF or a lone CR counts one line.
                fields.append(byte)
                if try reader.consume(Self.newline) { fields.append(Self.newline) }
                line += 1
            } else if try reader.consume(Self.quote) {
                fields.append(Self.quote)  // "" is one quote (RFC 4180 §2.7)
            } else {
                return true
            }
        }
    }
}
