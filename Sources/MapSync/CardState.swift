import CarouselEngine

/// What the cards show at one frame, not debounced: which card is focused,
/// which way the carousel moves, and each visible card's share and scale
/// (the carousel-effect article's direction, the visibleItemsInvalidationHandler article's `0.7 + 0.3 · percentVisible`).
public struct CardState: Hashable, Sendable {
    /// The focused data index; nil for an empty list.
    public var focusedIndex: Int?
    /// Which way the offset moved since the previous frame.
    public var direction: Frame.Direction
    /// The cards overlapping the viewport, each with fraction and scale.
    public var visibleItems: VisibleItems

    public init(focusedIndex: Int?, direction: Frame.Direction, visibleItems: VisibleItems) {
        self.focusedIndex = focusedIndex
        self.direction = direction
        self.visibleItems = visibleItems
    }
}
