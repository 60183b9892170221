/// A small, fast, seeded random generator (SplitMix64, Steele et al. 2014):
/// the same seed gives the same file, byte for byte, on every run.
///
/// The one copy: the synthetic lists, the tests (`TestSupport` names it)
/// and the benchmark package all draw from it, so a seed means the same
/// sequence everywhere.
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

    /// A uniform double in [0, 1): the top 53 bits of the next value.
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// An approximately standard normal value: the sum of four uniforms,
    /// centred and scaled to variance 1 (the Irwin–Hall distribution). Plain
    /// arithmetic, no `log` or `cos`, so the file does not depend on the C
    /// library's rounding; its tails stop at ±3.46σ, which a store's
    /// distance from a city centre does not miss.
    mutating func normal() -> Double {
        (unit() + unit() + unit() + unit() - 2) * 1.7320508075688772
    }
}
