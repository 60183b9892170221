import SyntheticStores

/// The tests' seeded random generator: the library's (SplitMix64, Steele et
/// al. 2014), so a seed gives the tests, the synthetic lists and the
/// benchmarks the same sequence.
///
/// Every randomized test takes its seed from here so that a failure
/// reproduces: print the seed, rerun with it.
public typealias SplitMix64 = SyntheticStores.SplitMix64
