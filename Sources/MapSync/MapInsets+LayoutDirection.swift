import CarouselEngine
import MapCamera

extension MapInsets {
    /// Insets given by leading and trailing edge, resolved to left and right
    /// for `layoutDirection`: the leading edge is the left one in
    /// left-to-right and the right one in right-to-left, as UIKit's
    /// `NSDirectionalEdgeInsets` resolves against
    /// `effectiveUserInterfaceLayoutDirection` and Compose's
    /// `PaddingValues(start:end:)` against `LocalLayoutDirection`. A side
    /// panel on the leading edge stays beside the cards' first store in both
    /// directions.
    public init(
        top: Double = 0, leading: Double, bottom: Double = 0, trailing: Double,
        layoutDirection: LayoutDirection
    ) {
        switch layoutDirection {
        case .leftToRight: self.init(top: top, left: leading, bottom: bottom, right: trailing)
        case .rightToLeft: self.init(top: top, left: trailing, bottom: bottom, right: leading)
        }
    }

    /// The inset on the leading edge for `layoutDirection`: `left` in
    /// left-to-right, `right` in right-to-left.
    public func leading(in layoutDirection: LayoutDirection) -> Double {
        layoutDirection == .rightToLeft ? right : left
    }

    /// The inset on the trailing edge for `layoutDirection`: `right` in
    /// left-to-right, `left` in right-to-left.
    public func trailing(in layoutDirection: LayoutDirection) -> Double {
        layoutDirection == .rightToLeft ? left : right
    }
}
