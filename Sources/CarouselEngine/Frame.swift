/// What the carousel shows at one instant: what a `scrollViewDidScroll` /
/// `visibleItemsInvalidationHandler` call sees (as in the visibleItemsInvalidationHandler article), as a value.
public struct Frame: Hashable, Sendable {
    /// Which way the content moved since the previous frame (the carousel-effect article: the
    /// last offset against the current one). Logical: in right-to-left,
    /// where the offset shrinks toward later items, `forward` still means
    /// toward later items, so both directions tell the same story.
    public enum Direction: String, CaseIterable, Codable, Hashable, Sendable {
        /// Toward later items (the offset grew, or shrank in right-to-left).
        case forward
        /// Toward earlier items.
        case backward
        /// The offset did not change.
        case none
    }

    /// A silent loop jump between twins (the infinite-banner article): the app must call
    /// `setContentOffset(to, animated: false)` here.
    public struct Jump: Hashable, Sendable {
        /// The offset before the jump.
        public let from: Double
        /// The offset after it.
        public let to: Double

        public init(from: Double, to: Double) {
            self.from = from
            self.to = to
        }
    }

    /// The time of the frame, ms.
    public let time: Double
    /// The content offset (after any jump).
    public let offset: Double
    /// The focused laid-out item; nil when empty.
    public let index: Int?
    /// The data index the focused item shows; nil when empty.
    public let dataIndex: Int?
    /// Which way the content moved since the previous frame, jumps aside.
    public let direction: Direction
    /// The loop jump made since the previous frame, if any.
    public let jump: Jump?
    /// True when nothing moves: no drag and no motion in flight.
    public let isSettled: Bool

    public init(
        time: Double, offset: Double, index: Int?, dataIndex: Int?,
        direction: Direction, jump: Jump? = nil, isSettled: Bool
    ) {
        self.time = time
        self.offset = offset
        self.index = index
        self.dataIndex = dataIndex
        self.direction = direction
        self.jump = jump
        self.isSettled = isSettled
    }
}
