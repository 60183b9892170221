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

    /// What the problem is about, for counting: the column's name, `row`
    /// for the row as a whole (malformed, a wrong field count), `line too
    /// long`... An issue's reason says more; the kind only groups.
    public var kind: String {
        guard let column else { return Self.rowKind }
        // A column name from a file may be any length: counted by a prefix.
        return column.count <= 64 ? column : String(column.prefix(64)) + "…"
    }

    /// The kind of a problem with the whole row.
    public static let rowKind = "row"
    /// The kind that counts issues past `IssueLog`'s distinct kinds.
    public static let otherKind = "other"

    public var description: String {
        if let column { return "line \(line), column \(column): \(reason)" }
        return "line \(line): \(reason)"
    }
}
