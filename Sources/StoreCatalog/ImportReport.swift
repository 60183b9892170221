/// What an import did: how many stores went into the list, and every row it
/// turned away with why.
public struct ImportReport: Sendable, Hashable, Codable {
    public var list: String
    /// Stores written to the list (0 when an all-or-nothing import failed).
    public var imported: Int
    /// Rows turned away: invalid, or a duplicate id.
    public var rejected: Int
    /// Every problem, in file order (a row may have several).
    public var issues: [ImportIssue]

    public init(list: String, imported: Int, rejected: Int, issues: [ImportIssue]) {
        self.list = list
        self.imported = imported
        self.rejected = rejected
        self.issues = issues
    }
}
