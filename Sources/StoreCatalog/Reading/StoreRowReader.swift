import Foundation

// The seam between reading an input file and writing the catalog.
//
// A `StoreRowReader` streams a file row by row — never loading it whole — and
// hands each row over already validated: a `Store`, or every problem found in
// the row. The importer (which owns the database) decides what to do with
// them: all-or-nothing, `--skip-invalid`, duplicate ids across rows.

/// The input formats of an import.
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    case csv, tsv, json, jsonl, geojson

    /// The format a file name implies: `.csv`, `.tsv`/`.tab`, `.json`,
    /// `.jsonl`/`.ndjson`, `.geojson`; nil for anything else.
    public init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        case "geojson": self = .geojson
        default: return nil
        }
    }
}

/// One problem with one row, as a user reads it: where and why.
public struct ImportIssue: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based line of the file where the row starts (for JSON, the line of
    /// the object's opening brace).
    public var line: Int
    /// The column (the header as written in the file), or nil when the
    /// problem is the whole row (wrong column count, unterminated quote…).
    public var column: String?
    public var reason: String

    public init(line: Int, column: String?, reason: String) {
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var description: String {
        if let column { return "line \(line), column \(column): \(reason)" }
        return "line \(line): \(reason)"
    }
}

/// One row of the input, validated.
public enum ImportRow: Sendable, Hashable {
    case valid(Store, line: Int)
    /// Every problem found in the row (at least one).
    case invalid([ImportIssue])
}

/// A problem with the file as a whole that stops an import before any row is
/// read: unreadable, empty, no header, a required column missing, not a
/// GeoJSON FeatureCollection…
///
/// Its description is `path:line:column: reason`, as compilers print
/// positions, so that editors and terminals can jump there.
public struct ImportFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file.
    public var path: String
    /// The 1-based line of the problem, when it is at one place.
    public var line: Int?
    /// The 1-based column (in bytes from the line's start), when the reader
    /// knows it: a JSON syntax error.
    public var column: Int?
    /// What is wrong, in the library's terms.
    public var reason: String
    /// The format the file seems to be in instead, when the reader can tell
    /// (a GeoJSON object where a JSON array was expected).
    public var likelyFormat: ImportFormat?

    public init(path: String, line: Int? = nil, column: Int? = nil, reason: String, likelyFormat: ImportFormat? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
        self.likelyFormat = likelyFormat
    }

    public var description: String {
        switch (line, column) {
        case let (line?, column?): "\(path):\(line):\(column): \(reason)"
        case let (line?, nil): "\(path):\(line): \(reason)"
        default: "\(path): \(reason)"
        }
    }
}

/// Streams validated rows out of an input file, in file order.
public protocol StoreRowReader {
    /// The next row, or nil at the end of the file.
    mutating func next() throws(ImportFileError) -> ImportRow?
}
