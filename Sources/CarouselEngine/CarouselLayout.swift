/// A carousel's validated geometry and scrolling rules: everything needed to
/// say where items rest, which one is focused, what is visible and where a
/// fling ends.
///
/// Coordinates run along ``axis`` only. With `W` the viewport, `w` the item
/// length, `s` the spacing and `page = w + s`, item `i` rests (sits at the
/// anchor) at offset `rest(i) = i · page`, and the content is padded so that
/// every item can: offsets live in `[0, (itemCount − 1) · page]`.
///
/// In ``LayoutDirection/rightToLeft`` (horizontal only) the whole content is
/// mirrored and every offset in and out is a flipped flow layout's
/// `contentOffset.x`: item `i` rests at `maxOffset − i · page`, and drags and
/// velocities are positive toward the visual right (earlier items). The
/// rules run on the logical offset ``logicalOffset(_:)`` and their results
/// are mirrored back, so every answer is the left-to-right one seen in a
/// mirror. See ``LayoutDirection``.
///
/// Build one directly or, with defaults and presets resolved, from a
/// ``LayoutSpec``. Invalid values throw a ``LayoutError``.
public struct CarouselLayout: Hashable, Sendable {
    /// The scroll axis.
    public let axis: ScrollAxis
    /// Which way the items run on screen; index 0 at the right edge in
    /// right-to-left. Mirrors only a horizontal carousel: like
    /// `UICollectionViewFlowLayout`, which flips horizontally only, a
    /// vertical one reads top to bottom in every language.
    public let layoutDirection: LayoutDirection
    /// The viewport length `W` along the axis.
    public let viewport: Double
    /// The item length `w`, in points (a fraction already resolved).
    public let itemLength: Double
    /// The spacing `s` between consecutive items.
    public let spacing: Double
    /// The section inset before the first item; used by `leading` alignment
    /// only (`center` computes its own inset).
    public let sectionInset: Double
    /// The snap anchor.
    public let alignment: CardAlignment
    /// The number of data items `n`; 0 is a valid, empty carousel.
    public let dataCount: Int
    /// The loop bookkeeping, or nil for a carousel with ends.
    public let loop: LoopGeometry?
    /// How a release picks its resting place.
    public let snap: SnapRule
    /// How quickly flings slow down.
    public let deceleration: Deceleration
    /// Whether drags move the content (false for the `none` behaviour).
    public let isScrollEnabled: Bool
    /// The scale of an item with nothing visible (0.7 in the visibleItemsInvalidationHandler article).
    public let minScale: Double
    /// The duration of an animated scroll, in ms.
    public let animationMs: Double
    /// The interval between frames, in ms (at least 1).
    public let frameMs: Double

    /// The most items, and the most loop copies at each end, a layout holds:
    /// 10¹². Bounded so that `n + 2k` cannot overflow `Int` and every item
    /// index and rest offset is exact in a `Double` (below 2⁵³), which the
    /// focus and snap arithmetic converts back to `Int`.
    public static let maxCount = 1_000_000_000_000

    /// The longest viewport, item, spacing or inset: 10⁹ points. With
    /// ``maxCount`` items every rest offset stays below 10²², finite and
    /// with room for a fling's projection.
    public static let maxLength = 1e9

    /// The shortest viewport or item: 10⁻³ points. Shorter lengths underflow
    /// when divided by the page (a 5e-324-pt viewport's edges round to the
    /// same item) and show nothing a screen could.
    public static let minLength = 1e-3

    /// Validates and builds a layout.
    ///
    /// - Parameters:
    ///   - axis: the scroll axis.
    ///   - layoutDirection: which way the items run; offsets in right-to-left
    ///     are a flipped flow layout's `contentOffset.x` (see ``LayoutDirection``).
    ///   - viewport: the viewport length `W`; finite and > 0.
    ///   - itemLength: the item length `w`, in points or as a fraction of `W`.
    ///   - spacing: the spacing `s` between items; ≥ 0.
    ///   - sectionInset: the inset before the first item (`leading` alignment); ≥ 0.
    ///   - alignment: the snap anchor.
    ///   - dataCount: the number of data items `n`; ≥ 0 (0 is an empty carousel).
    ///   - loop: lay out `loopPadding` copies at each end and jump between
    ///     twins (the infinite-banner article's silent jump). Ignored when `dataCount` is 0.
    ///   - loopPadding: the copies `k` at each end; at least 1.
    ///   - snap: how a release picks its resting place.
    ///   - deceleration: how quickly flings slow down.
    ///   - isScrollEnabled: whether drags move the content.
    ///   - minScale: the scale of an item with nothing visible, in [0, 1].
    ///   - animationMs: the duration of animated scrolls; ≥ 0.
    ///   - frameMs: the interval between frames; finite and ≥ 1.
    public init(
        axis: ScrollAxis = .horizontal,
        layoutDirection: LayoutDirection = .leftToRight,
        viewport: Double,
        itemLength: ItemLength,
        spacing: Double = 0,
        sectionInset: Double = 0,
        alignment: CardAlignment = .leading,
        dataCount: Int,
        loop: Bool = false,
        loopPadding: Int = 2,
        snap: SnapRule = .nearest,
        deceleration: Deceleration = .normal,
        isScrollEnabled: Bool = true,
        minScale: Double = 0.7,
        animationMs: Double = 300,
        frameMs: Double = 1000.0 / 60
    ) throws(LayoutError) {
        try LayoutError.requireLength(viewport, "viewport")
        try LayoutError.requireNonNegative(spacing, "spacing", atMost: Self.maxLength)
        try LayoutError.requireNonNegative(sectionInset, "sectionInset", atMost: Self.maxLength)
        try LayoutError.requireNonNegative(animationMs, "animationMs")
        // Frames are display refreshes: below 1 ms (1000 Hz) a motion's frame
        // count explodes without showing anything more.
        guard frameMs.isFinite, frameMs >= 1 else {
            throw LayoutError("frameMs", "must be a finite number of ms ≥ 1", frameMs)
        }
        guard minScale.isFinite, (0...1).contains(minScale) else {
            throw LayoutError("minScale", "must be in [0, 1]", minScale)
        }
        guard (0...Self.maxCount).contains(dataCount) else {
            throw LayoutError("count", "must be a whole number in 0...\(Self.maxCount)", dataCount)
        }
        if loop {
            guard (1...Self.maxCount).contains(loopPadding) else {
                throw LayoutError("loopPadding", "must be a whole number in 1...\(Self.maxCount)", loopPadding)
            }
        }
        self.axis = axis
        self.layoutDirection = layoutDirection
        self.viewport = viewport
        self.itemLength = try itemLength.resolved(in: viewport)
        self.spacing = spacing
        self.sectionInset = sectionInset
        self.alignment = alignment
        self.dataCount = dataCount
        self.loop = loop && dataCount > 0 ? LoopGeometry(dataCount: dataCount, padding: loopPadding) : nil
        self.snap = snap
        self.deceleration = deceleration
        self.isScrollEnabled = isScrollEnabled
        self.minScale = minScale
        self.animationMs = animationMs
        self.frameMs = frameMs
    }
}

// MARK: - Geometry

extension CarouselLayout {
    /// The distance between consecutive rests, `w + s`.
    public var page: Double { itemLength + spacing }

    /// The number of laid-out items: `n`, or `n + 2k` when looping.
    public var itemCount: Int { loop?.itemCount ?? dataCount }

    /// The item the carousel starts on before any scroll: `k` when looping, else 0.
    public var firstDataItem: Int { loop?.firstDataItem ?? 0 }

    /// Where item `item` rests: `item · page`, or `maxOffset − item · page`
    /// in right-to-left.
    public func rest(_ item: Int) -> Double { logicalOffset(logicalRest(item)) }

    /// Where item `item` rests in the logical (left-to-right) frame: `item · page`.
    func logicalRest(_ item: Int) -> Double { Double(item) * page }

    /// True when offsets are mirrored: right-to-left on a horizontal axis.
    public var isMirrored: Bool { layoutDirection == .rightToLeft && axis == .horizontal }

    /// The content before the first item: `sectionInset` for `leading`,
    /// `(W − w) / 2` for `center` so the first item can sit at the centre.
    public var leadingInset: Double {
        switch alignment {
        case .leading: sectionInset
        case .center: (viewport - itemLength) / 2
        }
    }

    /// The content after the last item that lets it rest at the anchor too:
    /// `W − leadingInset − w` (negative when a leading-aligned item plus its
    /// inset overflows the viewport).
    public var trailingInset: Double { viewport - leadingInset - itemLength }

    /// The scrollable content length: `(itemCount − 1) · page + W`, so the
    /// last offset is the last item's rest; 0 for an empty carousel.
    public var contentLength: Double {
        itemCount == 0 ? 0 : maxOffset + viewport
    }

    /// The largest offset, the rest of the last item.
    public var maxOffset: Double { logicalRest(max(itemCount - 1, 0)) }

    /// The offsets the content can take, `[0, (itemCount − 1) · page]`.
    public var offsetRange: ClosedRange<Double> { 0...maxOffset }

    /// `offset` pinned inside ``offsetRange`` (no rubber band: the engine
    /// models a scroll view with `bounces = false`). The range is the same
    /// in both directions, so the clamp commutes with the mirror.
    public func clampedOffset(_ offset: Double) -> Double {
        min(max(offset, 0), maxOffset)
    }

    /// The focused item at `offset`: the one whose anchor is nearest the
    /// viewport's, `clamp(round(offset / page), 0, itemCount − 1)`; nil when
    /// empty. Never "the last visible item" (the visibleItemsInvalidationHandler article's off-by-one when neighbours peek).
    public func focusedItem(at offset: Double) -> Int? {
        focusedItem(atLogical: logicalOffset(offset))
    }

    /// ``focusedItem(at:)`` for a logical (left-to-right) offset.
    func focusedItem(atLogical offset: Double) -> Int? {
        itemCount == 0 ? nil : clampedItem(offset / page)
    }

    /// The data index shown by item `item`: itself, or its loop data index.
    public func dataIndex(ofItem item: Int) -> Int {
        loop?.dataIndex(ofItem: item) ?? item
    }

    /// The data index focused at `offset`; nil when empty.
    public func focusedDataIndex(at offset: Double) -> Int? {
        focusedItem(at: offset).map(dataIndex(ofItem:))
    }

    /// The item showing `dataIndex` nearest `offset` (the index itself
    /// without a loop); `dataIndex` must be in `0..<dataCount`.
    public func nearestItem(showing dataIndex: Int, to offset: Double) -> Int {
        nearestItem(showing: dataIndex, toLogical: logicalOffset(offset))
    }

    /// ``nearestItem(showing:to:)`` for a logical (left-to-right) offset.
    func nearestItem(showing dataIndex: Int, toLogical offset: Double) -> Int {
        loop?.nearestItem(showing: dataIndex, to: offset, page: page) ?? dataIndex
    }

    /// Where a looping carousel at `offset` must jump to, silently, or nil
    /// when it need not (or does not loop).
    ///
    /// Call it from `scrollViewDidScroll` and set the offset without
    /// animation when it answers, as the "infinite banner" technique does:
    /// the carousel lays out `k` copies of the data at each end, and once the
    /// offset runs past `rest(n + k)` or below `rest(k − 1)` it moves by a
    /// whole period `n · page` to the twin card that shows the same store.
    /// The focused store does not change, so nothing downstream sees it.
    ///
    /// ```swift
    /// func scrollViewDidScroll(_ scrollView: UIScrollView) {
    ///     if let target = layout.loopJumpTarget(for: scrollView.contentOffset.x) {
    ///         scrollView.contentOffset.x = target   // no animation: the same card
    ///     }
    /// }
    /// ```
    ///
    /// A non-finite offset answers nil. In right-to-left the jump is the
    /// left-to-right one mirrored: the same twin, the offset moved the
    /// other way.
    public func loopJumpTarget(for offset: Double) -> Double? {
        guard offset.isFinite, let delta = loopJump(for: logicalOffset(offset)) else { return nil }
        return offset + logicalDelta(delta)
    }

    /// The logical offset change a loop jump at logical `offset` makes, or nil.
    func loopJump(for offset: Double) -> Double? {
        loop?.jump(for: offset, page: page)
    }

    /// `position` rounded Swift's way (halves away from zero) and clamped to
    /// the items, in floating point first so a huge offset cannot trap `Int(_:)`.
    func clampedItem(_ position: Double) -> Int {
        Int(min(max(position.rounded(), 0), Double(itemCount - 1)))
    }
}
