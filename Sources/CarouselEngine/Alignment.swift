/// Where a resting item sits in the viewport: the snap anchor (SPEC §4).
public enum Alignment: String, CaseIterable, Codable, Hashable, Sendable {
    /// The item's leading edge at the viewport's leading edge plus the section
    /// inset (UIKit `groupPaging`, seed 000's left-pinned cards).
    case leading
    /// The item's centre at the viewport's centre, neighbours peeking on both
    /// sides (UIKit `groupPagingCentered`, seeds 001 and 002).
    case center
}
