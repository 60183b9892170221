import Synchronization

/// When a session's client last sent a message: the idle timeout closes
/// the session this long after it.
final class SessionIdleClock: Sendable {
    private let last = Mutex(ContinuousClock.now)

    /// A message came now.
    func touch() { last.withLock { $0 = .now } }

    /// When the session is idle for `timeout`, from the last message.
    func deadline(after timeout: Duration) -> ContinuousClock.Instant { last.withLock { $0 } + timeout }
}
