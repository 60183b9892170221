import TextInput

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

extension ImportFileError {
    /// The file error for input that could not be read.
    package init(_ error: InputError) {
        self.init(path: error.path, line: error.line, reason: error.reason)
    }
}

extension JSONTokenizer.Failure {
    /// The failure as an error of the whole file at `path`: where a syntax
    /// error cannot be stepped over, it stops the import with its line.
    package func fileError(path: String) -> ImportFileError {
        switch self {
        case .syntax(let line, let column, let reason):
            ImportFileError(path: path, line: line, column: column, reason: "malformed JSON: \(reason)")
        case .duplicateMember(let line, let column, let name):
            ImportFileError(
                path: path, line: line, column: column,
                reason: "malformed JSON: duplicate member '\(name)' at column \(column): each name may appear once in an object")
        case .file(let error as ImportFileError): error
        case .file(let error as InputError): ImportFileError(error)
        case .file(let error): ImportFileError(path: path, reason: "\(error)")
        }
    }
}

extension ByteReader {
    /// Opens the store file at `path` for an import, past its byte order
    /// mark, if any.
    package static func openStoreFile(path: String, chunkSize: Int, maxRowBytes: Int) throws(ImportFileError) -> ByteReader {
        do throws(InputError) {
            var reader = try ByteReader(path: path, chunkSize: chunkSize, maxRowBytes: maxRowBytes)
            try reader.skipByteOrderMark()
            return reader
        } catch {
            throw ImportFileError(error)
        }
    }
}
