import TextInput

/// Streams the stores of a CSV or TSV file with a header row (RFC 4180 quoting).
package struct CSVStoreRowReader: StoreRowReader {
    private var parser: CSVRowParser
    private let layout: ColumnLayout
    private var fields = RawFields()
    private var finished = false

    /// Opens `path` and reads its header; a file that cannot feed stores at
    /// all (unreadable, empty, a required column missing, duplicate column
    /// names) fails here, before any row.
    package init(
        path: String,
        delimiter: UInt8,
        chunkSize: Int = ByteReader.defaultChunkSize,
        maxRowBytes: Int = ByteReader.defaultMaxRowBytes
    ) throws(ImportFileError) {
        let reader = try ByteReader.openStoreFile(path: path, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
        parser = CSVRowParser(reader: reader, delimiter: delimiter)

        func failure(_ reason: String, line: Int? = 1) -> ImportFileError {
            ImportFileError(path: path, line: line, reason: reason)
        }
        switch try parser.nextRecord(into: &fields) {
        case .end:
            throw failure("empty file: expected a header row naming the columns (id, name, latitude, longitude…)", line: nil)
        case .unterminatedQuote(let line):
            throw failure("unterminated quote in the header row: close it with \"", line: line)
        case .record:
            break
        }
        let headerLine = fields.line
        if let field = parser.fieldsWithTextAfterQuote.first {
            throw failure("header column \(field + 1) has text after its closing quote", line: headerLine)
        }
        var headers: [String] = []
        for index in 0..<fields.count {
            // UTF8Text rather than `String(validating:as:)`, which needs iOS 18.
            guard let header = fields.field(index).withUnsafeBufferPointer(UTF8Text.string) else {
                throw failure("header column \(index + 1) is not valid UTF-8: save the file as UTF-8", line: headerLine)
            }
            headers.append(header)
        }
        do {
            layout = try ColumnLayout(headers: headers)
        } catch {
            throw failure("\(error) in the header row", line: headerLine)
        }
        let missing = layout.missingRequiredFields
        guard missing.isEmpty else {
            let reasons = missing.map { "no \($0.label) column (looked for \($0.aliasList))" }
            throw failure(reasons.joined(separator: "; "), line: headerLine)
        }
    }

    /// CSV cells are text: the import decides each column's type.
    package var cellsAreText: Bool { true }

    package mutating func next() throws(ImportFileError) -> ImportRow? {
        guard !finished else { return nil }
        switch try parser.nextRecord(into: &fields) {
        case .end:
            finished = true
            return nil
        case .unterminatedQuote(let line):
            finished = true
            return .invalid([
                ImportIssue(
                    line: line, column: nil,
                    reason: "unterminated quote: the quoted field opened here runs to the end of the file; close it with \""
                )
            ])
        case .record:
            return validatedRecord()
        }
    }

    private func validatedRecord() -> ImportRow {
        let expected = layout.headers.count
        // Which value is which is unknowable with a field too many or too few.
        guard fields.count == expected else {
            let noun = expected == 1 ? "field" : "fields"
            return .invalid([
                ImportIssue(
                    line: fields.line, column: nil,
                    reason: "expected \(expected) \(noun), found \(fields.count)"
                )
            ])
        }
        let quoteIssues = parser.fieldsWithTextAfterQuote.map { field in
            ImportIssue(
                line: fields.line, column: layout.headers[field],
                reason: "text after the closing quote; write a quote inside a quoted field as \"\""
            )
        }
        return StoreRowValidator.validate(fields, layout: layout, knownIssues: quoteIssues)
    }
}
