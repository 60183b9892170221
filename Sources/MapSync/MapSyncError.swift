/// A call the view model cannot honour: what was wrong and what to do.
public enum MapSyncError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A store index outside the list.
    case indexOutOfRange(index: Int, count: Int)
    /// A layout laid out for a different number of items than the list holds.
    case layoutCountMismatch(layoutCount: Int, storeCount: Int)
    /// A scroll offset that is not a finite number.
    case nonFiniteOffset(Double)

    public var description: String {
        switch self {
        case let .indexOutOfRange(index, count):
            count == 0
                ? "store \(index) does not exist: the list is empty"
                : "store \(index) is out of range: the list has \(count) store\(count == 1 ? "" : "s") (0...\(count - 1))"
        case let .layoutCountMismatch(layoutCount, storeCount):
            "the layout has \(layoutCount) data items but the list has \(storeCount) stores: lay it out with dataCount \(storeCount)"
        case let .nonFiniteOffset(offset):
            "the scroll offset \(offset) is not a finite number"
        }
    }
}
