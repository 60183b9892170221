/// Where a resting item sits in the viewport: the snap anchor.
public enum CardAlignment: String, CaseIterable, Codable, Hashable, Sendable {
    /// The item's leading edge at the viewport's leading edge plus the section
    /// inset (UIKit `groupPaging`, the carousel-effect article's left-pinned cards).
    case leading
    /// The item's centre at the viewport's centre, neighbours peeking on both
    /// sides (UIKit `groupPagingCentered`, as the orthogonalScrollingBehavior and visibleItemsInvalidationHandler articles lay out).
    case center
}
