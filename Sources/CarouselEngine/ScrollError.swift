/// A call the scroller cannot honour: what was wrong and what to do.
public enum ScrollError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A number (offset, translation, velocity, time) that is NaN or infinite.
    case nonFinite(parameter: String, value: Double)
    /// A call dated before the scroller's clock: calls must come in time order.
    case timeWentBackwards(time: Double, now: Double)
    /// `drag(translation:at:)` with no drag in progress.
    case notDragging
    /// A data index outside `0..<dataCount`.
    case itemOutOfRange(index: Int, dataCount: Int)

    public var description: String {
        switch self {
        case let .nonFinite(parameter, value):
            "\(parameter) must be a finite number (got \(value))"
        case let .timeWentBackwards(time, now):
            "time \(time) ms is before the scroller's clock (\(now) ms): calls must come in time order"
        case .notDragging:
            "no drag in progress: call beginDrag(at:) before drag(translation:at:)"
        case let .itemOutOfRange(index, dataCount):
            dataCount == 0
                ? "item \(index) does not exist: the carousel is empty"
                : "item \(index) is out of range: the carousel has items 0...\(dataCount - 1)"
        }
    }
}
