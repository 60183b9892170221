/// How ``Catalog/importList(named:from:options:)`` treats the rows it reads.
public struct ImportOptions: Sendable, Hashable {
    /// Import the valid rows and report the others, instead of importing
    /// nothing when any row is invalid (all or nothing, unless asked).
    public var skipInvalid: Bool
    /// Swap an existing list of the same name for the new one, atomically.
    public var replace: Bool
    /// The carousel order of the imported list.
    public var order: ImportOrder

    public init(skipInvalid: Bool = false, replace: Bool = false, order: ImportOrder = .file) {
        self.skipInvalid = skipInvalid
        self.replace = replace
        self.order = order
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
