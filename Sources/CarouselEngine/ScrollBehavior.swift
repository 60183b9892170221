/// Named presets mirroring UIKit's `UICollectionLayoutSectionOrthogonalScrollingBehavior`
/// (UIKit's `orthogonalScrollingBehavior`), each a bundle of alignment, snap rule and deceleration.
///
/// A preset only supplies defaults: an explicit `alignment`, `snap` or
/// `deceleration` overrides that part of it (see ``LayoutSpec``), so
/// `groupPagingCentered` with `snap: nearest` is a centred carousel that may
/// skip items.
public enum ScrollBehavior: String, CaseIterable, Codable, Hashable, Sendable {
    /// center + single + fast: one card per swipe, neighbours peeking (App Store).
    case groupPagingCentered
    /// leading + single + fast: one card per swipe, pinned to the leading edge.
    case groupPaging
    /// leading + nearest + normal: free flings that settle on a card boundary.
    case continuousGroupLeadingBoundary
    /// page + fast: whole viewports at a time (`isPagingEnabled`).
    case paging
    /// free + normal: an ordinary scroll view, no snapping.
    case continuous
    /// No user scrolling at all: drags do not move the content (programmatic
    /// scrolls still do, as `setContentOffset` does with `isScrollEnabled = false`).
    case none

    /// The anchor this preset rests items at.
    public var alignment: CardAlignment {
        self == .groupPagingCentered ? .center : .leading
    }

    /// The rule this preset snaps with.
    public var snap: SnapRule {
        switch self {
        case .groupPagingCentered, .groupPaging: .single
        case .continuousGroupLeadingBoundary: .nearest
        case .paging: .page
        case .continuous, .none: .free
        }
    }

    /// The deceleration rate this preset flings with.
    public var deceleration: Deceleration {
        switch self {
        case .groupPagingCentered, .groupPaging, .paging: .fast
        case .continuousGroupLeadingBoundary, .continuous, .none: .normal
        }
    }

    /// Whether a drag moves the content.
    public var isScrollEnabled: Bool { self != .none }
}
