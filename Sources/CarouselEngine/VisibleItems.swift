/// The items overlapping the viewport at one offset, in order, each with how
/// much of it shows and the scale that gives it (the visibleItemsInvalidationHandler article's card scale).
///
/// A window onto the layout, not a copy: the index range is computed
/// arithmetically and each element on access, so it costs the same for a
/// list of 5 items or 200,000 — it runs on every frame.
public struct VisibleItems: RandomAccessCollection, Hashable, Sendable {
    /// One visible item.
    public struct Item: Hashable, Sendable {
        /// The laid-out item index (with loop copies counted).
        public let index: Int
        /// The data index it shows.
        public let dataIndex: Int
        /// The visible share of the item's length, in (0, 1].
        public let fraction: Double
        /// `minScale + (1 − minScale) · fraction` (the visibleItemsInvalidationHandler article: `0.7 + 0.3 · percentVisible`).
        public let scale: Double
        /// Where the item's left (top) edge is, from the viewport's left
        /// (top) edge: its frame's `minX` in the viewport's coordinates, as
        /// `layoutAttributesForElements(in:)` minus the content offset would
        /// give. In right-to-left it is the left-to-right one mirrored inside
        /// the viewport, `W − position − w`.
        public let position: Double
    }

    /// The laid-out indices of the visible items.
    public let indices: Range<Int>
    private let layout: CarouselLayout
    private let offset: Double

    /// The visible items of `layout` at logical (left-to-right) offset `offset`.
    init(layout: CarouselLayout, logicalOffset offset: Double) {
        self.layout = layout
        self.offset = offset
        guard layout.itemCount > 0 else {
            indices = 0..<0
            return
        }
        // Item i spans [i·page + L, i·page + L + w]; it overlaps the viewport
        // [x, x + W] when i·page + L + w > x and i·page + L < x + W, i.e.
        // i > (x − L − w) / page and i < (x + W − L) / page.
        let page = layout.page, lead = layout.leadingInset
        let lastItem = Double(layout.itemCount - 1)
        func item(_ position: Double) -> Int { Int(Swift.min(Swift.max(position, -1), lastItem + 1)) }
        var lower = Swift.max(item(((offset - lead - layout.itemLength) / page).rounded(.down) + 1), 0)
        var upper = Swift.min(item(((offset + layout.viewport - lead) / page).rounded(.up) - 1), layout.itemCount - 1)
        // Rounding can admit an item that only touches an edge; trim those
        // so every listed item really shows (at most one per end).
        while lower <= upper, Self.overlap(of: lower, in: layout, at: offset) <= 0 { lower += 1 }
        while upper >= lower, Self.overlap(of: upper, in: layout, at: offset) <= 0 { upper -= 1 }
        // Nothing overlaps when the bounds cross (an item narrower than the
        // rounding between them): an empty range, never an inverted one.
        indices = lower..<Swift.max(lower, upper + 1)
    }

    public var startIndex: Int { indices.lowerBound }
    public var endIndex: Int { indices.upperBound }

    public subscript(position: Int) -> Item {
        precondition(indices.contains(position), "visible item \(position) out of \(indices)")
        let fraction = Swift.min(Self.overlap(of: position, in: layout, at: offset) / layout.itemLength, 1)
        let start = layout.logicalRest(position) + layout.leadingInset - offset
        return Item(
            index: position,
            dataIndex: layout.dataIndex(ofItem: position),
            fraction: fraction,
            scale: layout.minScale + (1 - layout.minScale) * fraction,
            position: layout.isMirrored ? layout.viewport - start - layout.itemLength : start
        )
    }

    /// The length of item `item` inside the viewport at `offset` (negative
    /// when apart): `Swift.min(ends) − Swift.max(starts)`, the visibleItemsInvalidationHandler article's intersection width.
    private static func overlap(of item: Int, in layout: CarouselLayout, at offset: Double) -> Double {
        let start = layout.logicalRest(item) + layout.leadingInset
        return Swift.min(start + layout.itemLength, offset + layout.viewport) - Swift.max(start, offset)
    }
}

extension CarouselLayout {
    /// The items visible at `offset`, each with its fraction and scale.
    /// O(1) to build and O(1) per element, whatever the item count. In
    /// right-to-left, the same items as at the mirrored left-to-right
    /// offset, with mirrored positions.
    public func visibleItems(at offset: Double) -> VisibleItems {
        VisibleItems(layout: self, logicalOffset: logicalOffset(offset))
    }
}
