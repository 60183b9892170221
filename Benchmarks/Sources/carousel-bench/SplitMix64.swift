/// A small, fast, seeded random generator (SplitMix64, Steele et al. 2014).
///
/// The same generator as the tests' `TestSupport.SplitMix64`, repeated here
/// because a test-support target is not a product another package can
/// depend on. Every random choice of the benchmark (gestures, query points)
/// comes from one of these, so a run reproduces exactly.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
