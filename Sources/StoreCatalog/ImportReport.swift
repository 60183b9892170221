/// What an import did: how many stores went into the list, and the rows it
/// turned away with why — the first ``ImportOptions/issueLimit`` issues in
/// full, every one counted.
public struct ImportReport: Sendable, Hashable, Codable {
    public var list: String
    /// Stores written to the list (0 when an all-or-nothing import failed).
    public var imported: Int
    /// Rows turned away: invalid, or a duplicate id.
    public var rejected: Int
    /// The first problems, in file order (a row may have several): at most
    /// the import's ``ImportOptions/issueLimit``, so that a file of bad rows
    /// makes a report of bounded size.
    public var issues: [ImportIssue]
    /// How many problems there were in all, listed or not.
    public var issueCount: Int
    /// How many problems of each kind (``ImportIssue/kind``), listed or not.
    public var issueCountsByKind: [String: Int]
    /// Reading stopped early: more than ``ImportOptions/issueLimit`` rows
    /// were rejected, and the rest of the file was not read ("too many
    /// errors"). Nothing is imported then.
    public var stoppedEarly: Bool
    /// The type each CSV or TSV attribute column got, by header (decided
    /// over the column, or forced); empty for JSON, whose values keep their
    /// own types.
    public var columnTypes: [String: AttributeType] = [:]

    /// A report listing `issues`, all of them: counted from the list.
    public init(list: String, imported: Int, rejected: Int, issues: [ImportIssue]) {
        var log = IssueLog(limit: max(issues.count, 1))
        log.add(issues)
        self.init(list: list, imported: imported, rejected: rejected, log: log, stoppedEarly: false)
    }

    init(list: String, imported: Int, rejected: Int, log: IssueLog, stoppedEarly: Bool) {
        self.list = list
        self.imported = imported
        self.rejected = rejected
        issues = log.listed
        issueCount = log.count
        issueCountsByKind = log.countsByKind
        self.stoppedEarly = stoppedEarly
    }
}

/// An import's issues in bounded memory: the first `limit` kept, every one
/// counted, in total and by kind (itself at most ``maxKinds`` entries).
struct IssueLog {
    /// Kinds beyond this many are counted under ``ImportIssue/otherKind``:
    /// kinds are column names, and a JSON file can name any number.
    static let maxKinds = 64

    let limit: Int
    private(set) var listed: [ImportIssue] = []
    private(set) var count = 0
    private(set) var countsByKind: [String: Int] = [:]

    init(limit: Int) {
        self.limit = limit
    }

    mutating func add(_ issues: [ImportIssue]) {
        for issue in issues { add(issue) }
    }

    /// The longest reason kept, in UTF-8 bytes: a reason may quote a value
    /// (a duplicate id), and a value may be a line's length (1 MiB).
    static let maxReasonBytes = 512

    mutating func add(_ issue: ImportIssue) {
        count += 1
        if listed.count < limit {
            var issue = issue
            if issue.reason.utf8.count > Self.maxReasonBytes {
                issue.reason = String(decoding: issue.reason.utf8.prefix(Self.maxReasonBytes - 3), as: UTF8.self) + "…"
            }
            if let column = issue.column, column.utf8.count > Self.maxReasonBytes {
                issue.column = String(decoding: column.utf8.prefix(Self.maxReasonBytes - 3), as: UTF8.self) + "…"
            }
            listed.append(issue)
        }
        var kind = issue.kind
        if countsByKind[kind] == nil && countsByKind.count >= Self.maxKinds { kind = ImportIssue.otherKind }
        countsByKind[kind, default: 0] += 1
    }
}
