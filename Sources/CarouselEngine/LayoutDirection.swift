/// Which way the items run on screen: the reading direction of the app.
///
/// The index is always logical: "next" is index + 1 in both directions. In
/// `rightToLeft`, card 0 sits at the trailing (right) edge and later cards
/// run leftwards, as `UICollectionViewFlowLayout` lays them out when
/// `flipsHorizontallyInOppositeLayoutDirection` is true and the app runs in
/// Arabic or Hebrew (`effectiveUserInterfaceLayoutDirection == .rightToLeft`),
/// and as Compose's `LazyRow` does under `LocalLayoutDirection.Rtl`.
///
/// ## The engine's offsets in right-to-left
///
/// Every offset the engine takes or gives in `rightToLeft` (``CarouselLayout``'s
/// `at:`, `for:` and `to:` offsets, ``CarouselLayout/rest(_:)``, the
/// ``CarouselScroller``'s offset, drags, velocities, ``Frame``,
/// ``Release`` and ``ScrollCommand``) is UIKit's: the `contentOffset.x` of a
/// flipped flow layout, measured from the content's visual LEFT edge. Card 0
/// at the right edge therefore rests at the largest offset, `maxOffset`, and
/// item `i` at `maxOffset − i · page`. A drag translation and a velocity are
/// changes of that offset: positive moves the viewport right, toward
/// EARLIER items in right-to-left.
///
/// The engine runs its left-to-right rules on the logical offset (the
/// distance scrolled from the start edge), `logical = maxOffset − offset`,
/// and mirrors every result back the same way, so a right-to-left run is the
/// left-to-right run seen in a mirror. ``CarouselLayout/engineOffset(fromPlatform:_:)``
/// converts what Compose and the web report into this convention.
///
/// Only a horizontal carousel is mirrored (``CarouselLayout/isMirrored``):
/// UIKit's flow layout flips horizontally only, so a vertical carousel
/// reads top to bottom, with its offsets unchanged, in every language.
public enum LayoutDirection: String, CaseIterable, Codable, Hashable, Sendable {
    /// Card 0 at the left edge; offsets grow with the index (the default).
    case leftToRight
    /// Card 0 at the right edge; offsets are a flipped flow layout's
    /// `contentOffset.x` and shrink as the index grows.
    case rightToLeft
}

/// Whose scroll position an offset is: each platform reports a
/// right-to-left carousel's position its own way.
public enum PlatformOffsetConvention: String, CaseIterable, Hashable, Sendable {
    /// UIKit: `UIScrollView.contentOffset.x` of a flow layout that flips
    /// horizontally in the opposite layout direction
    /// (`flipsHorizontallyInOppositeLayoutDirection`, true by default for
    /// `UICollectionViewFlowLayout`). The content keeps its left origin, so
    /// the offset grows from the visual left; this is the engine's own
    /// convention, converted as is.
    case uiKit
    /// Jetpack Compose: `ScrollState.value` (or the first visible item and
    /// its scroll offset of a `LazyListState`) counts from the START edge,
    /// which is the right edge under `LayoutDirection.Rtl` or
    /// `reverseLayout`: 0 with card 0 at rest, growing toward later items.
    /// This is the engine's logical offset.
    case compose
    /// The web: `Element.scrollLeft` of a `dir="rtl"` scroller. The CSSOM
    /// View spec (and every current browser: Chrome 85+, Firefox, Safari)
    /// puts 0 at the start (right) edge and goes NEGATIVE toward the end,
    /// so `scrollLeft = −logical`. In left-to-right it is the plain offset.
    case web
}

extension CarouselLayout {
    /// The offset the left-to-right rules see: `maxOffset − offset` when
    /// ``isMirrored`` (a mirror about the content's centre: the viewport
    /// `[x, x + W]` of a content `maxOffset + W` long becomes
    /// `[maxOffset − x, maxOffset − x + W]`, loop copies and insets
    /// included), `offset` otherwise. It is its own inverse: it turns an
    /// engine (UIKit) offset into the logical one and back.
    public func logicalOffset(_ offset: Double) -> Double {
        isMirrored ? maxOffset - offset : offset
    }

    /// A velocity, drag translation or offset change in the other frame:
    /// negated in right-to-left (a mirror reverses motion), as is in
    /// left-to-right. Its own inverse too.
    public func logicalDelta(_ delta: Double) -> Double {
        isMirrored ? -delta : delta
    }

    /// The engine offset (a flipped flow layout's `contentOffset.x` in
    /// right-to-left) for a scroll position `offset` as `platform` reports it.
    ///
    /// In left-to-right (and on a vertical axis) every platform reports the
    /// engine's offset. In right-to-left: UIKit's as is, Compose's `value` (from the start edge)
    /// as `maxOffset − value`, the web's negative `scrollLeft` as
    /// `maxOffset + scrollLeft`.
    public func engineOffset(fromPlatform offset: Double, _ platform: PlatformOffsetConvention) -> Double {
        guard isMirrored else { return offset }
        switch platform {
        case .uiKit: return offset
        case .compose: return maxOffset - offset
        case .web: return maxOffset + offset
        }
    }

    /// The scroll position `platform` would report for engine offset
    /// `offset`: the inverse of ``engineOffset(fromPlatform:_:)``, for
    /// setting a scroller's position (`scrollTo`, `scrollLeft = …`).
    public func platformOffset(fromEngine offset: Double, _ platform: PlatformOffsetConvention) -> Double {
        guard isMirrored else { return offset }
        switch platform {
        case .uiKit: return offset
        case .compose: return maxOffset - offset
        case .web: return offset - maxOffset
        }
    }

    /// The engine velocity (points per ms, positive as the engine offset
    /// grows) for a velocity `platform` reports along its own offset: a
    /// Compose fling velocity is negated in right-to-left, since its offset
    /// runs the other way; UIKit's and the web's keep their sign (a
    /// negative `scrollLeft` still grows as the viewport moves right).
    public func engineVelocity(fromPlatform velocity: Double, _ platform: PlatformOffsetConvention) -> Double {
        guard isMirrored, platform == .compose else { return velocity }
        return -velocity
    }
}
