#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic time in nanoseconds, for timing code in process and out.
///
/// `clock_gettime(CLOCK_MONOTONIC)` directly: about 20 ns a read through the
/// vDSO, small next to the fastest query timed (a few µs), and an integer, so
/// differences never lose precision.
enum Stopwatch {
    /// Now, in nanoseconds since an arbitrary origin.
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// Runs `body` and returns its result with the seconds it took.
    static func time<T>(_ body: () throws -> T) rethrows -> (result: T, seconds: Double) {
        let start = nanoseconds()
        let result = try body()
        return (result, Double(nanoseconds() - start) / 1e9)
    }

    /// The untimed calls before the timed ones, unless told otherwise.
    static let warmUpCalls = 100

    /// How many times ``microsecondsPerCall(_:warmUp:_:)`` calls its query
    /// on `inputs` inputs, the untimed calls included: what a count made
    /// during the timing (stores found, page faults) is divided by.
    static func callsMade(inputs: Int, warmUp: Int = warmUpCalls) -> Int {
        inputs + min(warmUp, inputs)
    }

    /// Each call of `query` on `inputs` timed alone, in µs, after `warmUp`
    /// untimed calls: what the in-process query benchmarks report.
    static func microsecondsPerCall<Input, Output>(
        _ inputs: [Input], warmUp: Int = warmUpCalls, _ query: (Input) throws -> Output
    ) rethrows -> Samples {
        for input in inputs.prefix(warmUp) { _ = try query(input) }
        var micros: [Double] = []
        micros.reserveCapacity(inputs.count)
        for input in inputs {
            let start = nanoseconds()
            let output = try query(input)
            let elapsed = nanoseconds() - start
            withExtendedLifetime(output) {}
            micros.append(Double(elapsed) / 1e3)
        }
        return Samples(micros)
    }
}
