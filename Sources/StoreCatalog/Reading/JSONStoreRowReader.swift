import TextInput

/// Streams the stores of a JSON array of objects or of JSON Lines (one
/// object per line).
package struct JSONStoreRowReader: StoreRowReader {
    /// How the objects are laid out in the file.
    package enum Layout: Sendable {
        /// `[ {…}, {…} ]`: a syntax error cannot be stepped over, so it stops
        /// the import with its line.
        case array
        /// One object per line, blank lines skipped: a malformed line is one
        /// bad row and reading resumes on the next line.
        case lines
    }

    private let path: String
    private let layout: Layout
    private var tokenizer: JSONTokenizer
    private var row = JSONObjectRow()
    private var isFirstElement = true
    private var finished = false

    /// Opens `path`; an empty file, or one that does not start as `layout`
    /// says, fails here.
    package init(
        path: String, layout: Layout, chunkSize: Int = ByteReader.defaultChunkSize,
        maxRowBytes: Int = ByteReader.defaultMaxRowBytes
    ) throws(ImportFileError) {
        self.path = path
        self.layout = layout
        let reader = try ByteReader.openStoreFile(path: path, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
        tokenizer = JSONTokenizer(reader: reader)
        tokenizer.stopsAtLineBreaks = layout == .lines

        do {
            try start()
        } catch {
            throw error.fileError(path: path)
        }
    }

    /// Checks how the file starts and steps into the array.
    private mutating func start() throws(JSONTokenizer.Failure) {
        guard let first = try tokenizer.skipWhitespace(acrossLines: true) else {
            throw .file(
                ImportFileError(
                    path: path,
                    reason: layout == .array
                        ? "empty file: expected a JSON array of store objects"
                        : "empty file: expected one store object per line"))
        }
        guard layout == .array else { return }
        guard first == UInt8(ascii: "[") else {
            guard first == UInt8(ascii: "{") else {
                throw .syntax(line: tokenizer.line, column: tokenizer.column, reason: "expected a JSON array of store objects")
            }
            // An object: a GeoJSON FeatureCollection or JSON Lines, most likely.
            throw .file(
                ImportFileError(
                    path: path, line: tokenizer.line, column: tokenizer.column,
                    reason: "malformed JSON: expected a JSON array of store objects, found an object",
                    likelyFormat: .geojson))
        }
        try tokenizer.expect(first, "'['")
    }

    package mutating func next() throws(ImportFileError) -> ImportRow? {
        guard !finished else { return nil }
        do {
            switch layout {
            case .array: return try nextInArray()
            case .lines: return try nextLine()
            }
        } catch {
            throw error.fileError(path: path)
        }
    }

    private mutating func nextInArray() throws(JSONTokenizer.Failure) -> ImportRow? {
        // Marked before the separator (a long run of whitespace counts
        // against the row that follows it), then again at the element.
        tokenizer.startRow()
        guard try tokenizer.nextElement(isFirst: &isFirstElement) else {
            finished = true
            let after = try tokenizer.skipWhitespace(acrossLines: true)
            guard after == nil else { throw tokenizer.unexpected(after, expected: "nothing after the array") }
            return nil
        }
        _ = try tokenizer.skipWhitespace()
        tokenizer.startRow()
        return try readElement()
    }

    private mutating func nextLine() throws(JSONTokenizer.Failure) -> ImportRow? {
        guard try tokenizer.skipWhitespace(acrossLines: true) != nil else {
            finished = true
            return nil
        }
        tokenizer.startRow()
        do throws(JSONTokenizer.Failure) {
            let row = try readElement()
            let after = try tokenizer.skipWhitespace()
            guard after == nil || after == UInt8(ascii: "\n") else {
                throw tokenizer.unexpected(after, expected: "the end of the line after the object")
            }
            return row
        } catch .syntax(let line, let column, let reason) {
            // JSON Lines resynchronises at the next line.
            try tokenizer.skipLine()
            return .invalid([ImportIssue(line: line, column: nil, reason: "malformed JSON at column \(column): \(reason)")])
        }
    }

    /// Reads one element: an object is a row; anything else is a bad row.
    private mutating func readElement() throws(JSONTokenizer.Failure) -> ImportRow {
        _ = try tokenizer.skipWhitespace()
        let line = tokenizer.line  // of the opening brace
        if try tokenizer.consume(UInt8(ascii: "{")) {
            try row.read(from: &tokenizer, line: line)
            return row.validated(row.layout { (headers) throws(ColumnLayout.Problem) in try ColumnLayout(headers: headers) })
        }
        var scratch = RawFields()
        let kind = try tokenizer.readValue(into: &scratch)
        return .invalid([ImportIssue(line: line, column: nil, reason: "expected a store object, found \(kind.article)")])
    }
}

extension JSONTokenizer.ValueKind {
    /// "a string", "an object"… for messages.
    package var article: String {
        switch self {
        case .object, .array: "an \(rawValue)"
        case .null: "null"
        default: "a \(rawValue)"
        }
    }
}
