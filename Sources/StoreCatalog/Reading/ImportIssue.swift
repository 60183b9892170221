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
