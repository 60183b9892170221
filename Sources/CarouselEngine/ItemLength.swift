/// The length of one item along the scroll axis: fixed, or relative to the
/// viewport like `NSCollectionLayoutDimension.fractionalWidth(_:)`.
public enum ItemLength: Hashable, Sendable {
    /// A fixed number of points (the Instagram-paging article's 540-pt cells).
    case points(Double)
    /// A fraction in (0, 1] of the viewport length (the orthogonalScrollingBehavior article's 0.7 groups so
    /// neighbours peek; the carousel-effect article's 1/3).
    case fraction(Double)

    /// The length in points inside a viewport of `viewport` points, validated.
    func resolved(in viewport: Double) throws(LayoutError) -> Double {
        switch self {
        case .points(let length):
            try LayoutError.requireLength(length, "itemLength")
            return length
        case .fraction(let fraction):
            guard fraction.isFinite, fraction > 0, fraction <= 1 else {
                throw LayoutError("itemFraction", "must be a fraction of the viewport in (0, 1]", fraction)
            }
            let length = fraction * viewport
            // A tiny fraction of a small viewport can still be too short.
            guard length >= CarouselLayout.minLength else {
                throw LayoutError(
                    "itemFraction", "gives an item shorter than \(LayoutError.format(CarouselLayout.minLength)) points",
                    fraction)
            }
            return length
        }
    }
}
