import Geo

/// How ``Catalog/importList(named:from:options:)-8joon`` treats the rows it reads.
public struct ImportOptions: Sendable, Hashable {
    /// Import the valid rows and report the others, instead of importing
    /// nothing when any row is invalid (all or nothing, unless asked).
    public var skipInvalid: Bool
    /// Swap an existing list of the same name for the new one, atomically.
    public var replace: Bool
    /// The carousel order of the imported list.
    public var order: ImportOrder
    /// How many issues the report lists in full (the rest are counted), and
    /// how many rejected rows stop the import: past this many, the rest of
    /// the file is not read and nothing is imported ("too many errors"), so
    /// that a file of garbage costs bounded time and memory. 1 or more.
    public var issueLimit: Int
    /// Attribute columns given a type, by header (case ignored): every
    /// value must then be of that type (null and empty cells aside), or its
    /// row is invalid. Other CSV and TSV columns get the type their values
    /// share; JSON values keep their own.
    public var columnTypes: [String: AttributeType]
    /// The list's time zone, an IANA name (`Asia/Seoul`): an opening-time
    /// search reads the hours of a store without a `timezone` of its own
    /// on this zone's clock. Nil: such stores never match one.
    public var timeZone: String?

    /// The default ``issueLimit``: a report a person reads, a response of a
    /// few tens of KiB.
    public static let defaultIssueLimit = 100
    /// The largest ``issueLimit``: about 100 bytes an issue, 100 MB of
    /// report at most.
    public static let maxIssueLimit = 1_000_000

    public init(
        skipInvalid: Bool = false, replace: Bool = false, order: ImportOrder = .file,
        issueLimit: Int = ImportOptions.defaultIssueLimit, columnTypes: [String: AttributeType] = [:],
        timeZone: String? = nil
    ) {
        self.columnTypes = columnTypes
        self.timeZone = timeZone
        self.skipInvalid = skipInvalid
        self.replace = replace
        self.order = order
        self.issueLimit = issueLimit
    }
}

/// The carousel order an import gives its list.
public enum ImportOrder: Sendable, Hashable {
    /// As the rows come in the file.
    case file
    /// By name, ASCII case-insensitively, then as in the file.
    case name
    /// Nearest first from a point (haversine), then as in the file.
    case distance(from: Coordinate)
}

extension ImportOptions {
    /// The checks an import makes of its list name and options before
    /// reading a row, in either catalog.
    package func check(list: String) throws {
        try NameCharacters.checkListName(list)
        guard (1...Self.maxIssueLimit).contains(issueLimit) else {
            throw CatalogError.invalidArgument("the issue limit must be 1 to \(Self.maxIssueLimit) (got \(issueLimit))")
        }
        if let timeZone, ScheduleColumns.zone(named: timeZone) == nil {
            throw CatalogError.invalidArgument(ScheduleColumns.unknownZone(timeZone))
        }
        if case let .distance(origin) = order, !origin.isValid {
            throw CatalogError.invalidArgument("cannot order by distance from \(origin): not a valid coordinate")
        }
    }
}
