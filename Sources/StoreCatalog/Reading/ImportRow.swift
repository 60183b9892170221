/// One row of the input, validated.
public enum ImportRow: Sendable, Hashable {
    case valid(Store, line: Int)
    /// Every problem found in the row (at least one).
    case invalid([ImportIssue])
}
