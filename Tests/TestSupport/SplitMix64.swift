/// A small, fast, seeded random generator (SplitMix64, Steele et al. 2014).
///
/// Every randomized test takes its seed from here so that a failure
/// reproduces: print the seed, rerun with it.
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    /// The state now: a generator made with it continues this one's sequence.
    public var currentSeed: UInt64 { state }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
