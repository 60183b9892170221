/// How a release picks its resting place.
///
/// `p` is the projected rest of the release, `x` the offset at release, `v`
/// its velocity, `page = w + s`, `start` the focused index when the drag
/// began. Every index is then clamped to `[0, n-1]` and the target offset is
/// `rest(index)`.
public enum SnapRule: String, CaseIterable, Codable, Hashable, Sendable {
    /// No snapping: rest at `clamp(p)` (UIKit `continuous`).
    case free
    /// `round(p / page)` (the carousel-effect article, UIKit `continuousGroupLeadingBoundary`,
    /// Android `LinearSnapHelper`).
    case nearest
    /// `ceil(p / page)` when `p > x`, `floor` when `p < x`, `round` when equal
    /// (the orthogonalScrollingBehavior article's direction recipe).
    case directional
    /// `ceil(x / page)` when `v > 0`, `floor` when `v < 0`, `round` when 0:
    /// the release offset, not the projection, decides (the infinite-banner article).
    case velocity
    /// `start + clamp(directional − start, −1, 1)`: at most one item per
    /// gesture (the orthogonalScrollingBehavior article's `isOneStepPaging`, UIKit `groupPaging(Centered)`,
    /// Android `PagerSnapHelper`).
    case single
    /// Pages of the viewport length `W`: `k = round(p / W)` limited to ±1 from
    /// the start page `round(offset at drag start / W)`, rest at `clamp(k·W)`
    /// (UIKit `isPagingEnabled` / `paging`).
    case page
}
