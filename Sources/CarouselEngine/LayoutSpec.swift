/// A carousel layout as a script or the command line states it: every
/// setting optional, resolved in ONE place into a validated
/// ``CarouselLayout`` (the CLI's layout flags, a scroll script's `layout` object).
///
/// Resolution: start from ``behavior`` (default `groupPagingCentered`),
/// whose preset supplies alignment, snap rule and deceleration; any of
/// ``alignment``, ``snap`` or ``deceleration`` set explicitly overrides that
/// part of the preset. Everything else falls back to the defaults below.
/// Keys are camelCase, as in JSON: `{"viewport": 390, "itemFraction": 0.8,
/// "behavior": "groupPaging", "deceleration": 0.995}`.
public struct LayoutSpec: Hashable, Sendable {
    /// Default `horizontal`.
    public var axis: ScrollAxis?
    /// Default `leftToRight`; `rightToLeft` mirrors a horizontal carousel
    /// and takes its offsets as a flipped flow layout's `contentOffset.x`
    /// (see ``LayoutDirection``).
    public var layoutDirection: LayoutDirection?
    /// The viewport length `W`; default 390 (an iPhone's width in points).
    public var viewport: Double?
    /// The item length in points; default 300. Exclusive with ``itemFraction``.
    public var itemLength: Double?
    /// The item length as a fraction in (0, 1] of the viewport, like
    /// `.fractionalWidth(0.8)`. Exclusive with ``itemLength``.
    public var itemFraction: Double?
    /// The spacing between items; default 12.
    public var spacing: Double?
    /// The inset before the first item (leading alignment); default 0.
    public var sectionInset: Double?
    /// Overrides the preset's alignment.
    public var alignment: CardAlignment?
    /// Overrides the preset's snap rule.
    public var snap: SnapRule?
    /// The preset; default `groupPagingCentered` (center + single + fast).
    public var behavior: ScrollBehavior?
    /// Overrides the preset's deceleration: `"normal"`, `"fast"` or a rate.
    public var deceleration: Deceleration?
    /// Loop the items (the infinite-banner technique); default false.
    public var loop: Bool?
    /// Copies at each end when looping; default 2. Needs ``loop``.
    public var loopPadding: Int?
    /// The scale of an invisible item; default 0.7 (as the visibleItemsInvalidationHandler article).
    public var minScale: Double?
    /// The duration of animated scrolls in ms; default 300.
    public var animationMs: Double?
    /// The frame interval in ms; default 1000/60.
    public var frameMs: Double?

    public init(
        axis: ScrollAxis? = nil, viewport: Double? = nil, itemLength: Double? = nil, itemFraction: Double? = nil,
        spacing: Double? = nil, sectionInset: Double? = nil, alignment: CardAlignment? = nil, snap: SnapRule? = nil,
        behavior: ScrollBehavior? = nil, deceleration: Deceleration? = nil, loop: Bool? = nil,
        loopPadding: Int? = nil, minScale: Double? = nil, animationMs: Double? = nil, frameMs: Double? = nil,
        layoutDirection: LayoutDirection? = nil
    ) {
        self.axis = axis
        self.layoutDirection = layoutDirection
        self.viewport = viewport
        self.itemLength = itemLength
        self.itemFraction = itemFraction
        self.spacing = spacing
        self.sectionInset = sectionInset
        self.alignment = alignment
        self.snap = snap
        self.behavior = behavior
        self.deceleration = deceleration
        self.loop = loop
        self.loopPadding = loopPadding
        self.minScale = minScale
        self.animationMs = animationMs
        self.frameMs = frameMs
    }

    /// The default behaviour, `groupPagingCentered`.
    public static let defaultBehavior = ScrollBehavior.groupPagingCentered

    /// Resolves defaults and the preset into a validated layout of
    /// `dataCount` items.
    public func layout(dataCount: Int) throws(LayoutError) -> CarouselLayout {
        let behavior = behavior ?? Self.defaultBehavior
        let length: ItemLength
        switch (itemLength, itemFraction) {
        case (.some, .some):
            throw LayoutError("itemLength", "and itemFraction are exclusive: give one of them")
        case (let points?, nil): length = .points(points)
        case (nil, let fraction?): length = .fraction(fraction)
        case (nil, nil): length = .points(300)
        }
        if loopPadding != nil, loop != true {
            throw LayoutError("loopPadding", "only applies to a looping carousel: turn loop on or drop it")
        }
        return try CarouselLayout(
            axis: axis ?? .horizontal,
            layoutDirection: layoutDirection ?? .leftToRight,
            viewport: viewport ?? 390,
            itemLength: length,
            spacing: spacing ?? 12,
            sectionInset: sectionInset ?? 0,
            alignment: alignment ?? behavior.alignment,
            dataCount: dataCount,
            loop: loop ?? false,
            loopPadding: loopPadding ?? 2,
            snap: snap ?? behavior.snap,
            deceleration: deceleration ?? behavior.deceleration,
            isScrollEnabled: behavior.isScrollEnabled,
            minScale: minScale ?? 0.7,
            animationMs: animationMs ?? 300,
            frameMs: frameMs ?? 1000.0 / 60
        )
    }

    /// Checks every setting that does not depend on the item count, so bad
    /// input is reported before anything runs.
    public func validate() throws(LayoutError) {
        _ = try layout(dataCount: 0)
    }
}
