import Synchronization

/// Requests per second per client, as a token bucket: each client holds
/// up to `burst` tokens, gains `rate` a second, and spends one a request.
///
/// Memory is bounded: past ``maxClients`` buckets, those full again (idle
/// for burst / rate seconds, so forgetting them changes nothing) are
/// dropped; if none is, the table is cleared, which only ever lets
/// clients through, never refuses one wrongly.
final class RateLimiter: Sendable {
    let rate: Double
    let burst: Double
    static let maxClients = 100_000

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }
    private let buckets = Mutex<[String: Bucket]>([:])

    /// `rate` requests a second (1 or more), a burst of twice as many.
    init(rate: Int) {
        self.rate = Double(rate)
        burst = 2 * Double(rate)
    }

    /// nil when `client` may go on; else how many seconds until it may (1 or more).
    func take(for client: String, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            let elapsed = bucket.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + max(0, seconds) * rate)
            bucket.updated = now
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                if buckets[client] == nil && buckets.count >= Self.maxClients { forgetIdle(&buckets, now: now) }
                buckets[client] = bucket
                return nil
            }
            buckets[client] = bucket
            // One token comes back after (1 - tokens) / rate seconds.
            return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up)))
        }
    }

    private func forgetIdle(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let refill = Duration.seconds(burst / rate)
        buckets = buckets.filter { $0.value.updated.duration(to: now) < refill }
        if buckets.count >= Self.maxClients { buckets.removeAll() }
    }
}
