import CarouselEngine

extension CarouselScroller {
    /// Samples every frame that falls due until the scroller is at rest (or
    /// `limit` frames, so a bug cannot hang the test run).
    mutating func framesUntilSettled(limit: Int = 10_000) throws -> [Frame] {
        var frames: [Frame] = []
        while let due = nextFrameTime, frames.count < limit {
            frames.append(try frame(at: due))
        }
        return frames
    }
}

/// A layout or a test failure: the layouts in tests are valid by construction.
func makeLayout(
    axis: ScrollAxis = .horizontal,
    viewport: Double = 390,
    itemLength: ItemLength = .points(300),
    spacing: Double = 12,
    sectionInset: Double = 0,
    alignment: CardAlignment = .center,
    dataCount: Int = 10,
    loop: Bool = false,
    loopPadding: Int = 2,
    snap: SnapRule = .single,
    deceleration: Deceleration = .fast,
    isScrollEnabled: Bool = true,
    minScale: Double = 0.7
) throws -> CarouselLayout {
    try CarouselLayout(
        axis: axis, viewport: viewport, itemLength: itemLength, spacing: spacing, sectionInset: sectionInset,
        alignment: alignment, dataCount: dataCount, loop: loop, loopPadding: loopPadding, snap: snap,
        deceleration: deceleration, isScrollEnabled: isScrollEnabled, minScale: minScale
    )
}

/// Whether `a` and `b` agree to within `tolerance`.
func isClose(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}
