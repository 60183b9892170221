import PropertyBased
import SyntheticStores

// The house rule is seeded randomness only, so the generators of
// swift-property-based run on our SplitMix64 with a fixed seed rather than
// through `propertyCheck`'s fresh random seed per run.
extension SplitMix64: SeededRandomNumberGenerator {
    /// A fixed default, so that even a generator made without a seed repeats.
    public init() { self.init(seed: 0x5EED) }
}
