import CarouselEngine
import PropertyBased
import TestSupport

/// Generators of carousel layouts and of what a scroll view reports.
enum LayoutGen {
    /// Any valid layout of 1…500 items: any alignment, snap rule and rate,
    /// an item length in points or as a fraction of the viewport, with or
    /// without a loop of 1…3 copies at each end.
    static func layout(loop: Bool? = nil) -> Generator<CarouselLayout, some SendableSequenceType> {
        zip(
            Gen.double(in: 100...1000),
            Gen.double(in: 0.05...1.2),
            Gen.bool(),
            Gen.double(in: 0...50),
            Gen.double(in: 0...30),
            Gen<CardAlignment>.case,
            Gen.int(in: 1...500),
            Gen.int(in: 1...3),
            Gen<SnapRule>.case
        )
        .compactMap { viewport, length, asFraction, spacing, inset, alignment, count, padding, snap in
            try? CarouselLayout(
                viewport: viewport,
                itemLength: asFraction ? .fraction(min(length, 1)) : .points(length * viewport),
                spacing: spacing, sectionInset: inset, alignment: alignment,
                dataCount: count, loop: loop ?? (count % 2 == 0), loopPadding: padding, snap: snap
            )
        }
    }

    /// Runs `body` on `trials` values of `generator` drawn from `seed`;
    /// the trial number goes to `body` so that its messages can name it.
    static func check<Value>(
        _ generator: Generator<Value, some SendableSequenceType>, seed: UInt64, trials: Int = 500,
        _ body: (Value, _ context: String) throws -> Void
    ) rethrows {
        var random = SplitMix64(seed: seed)
        for trial in 0..<trials {
            let value = generator.run(using: &random)
            try body(value, "seed \(seed) trial \(trial)")
        }
    }
}
