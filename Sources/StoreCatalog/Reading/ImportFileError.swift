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
