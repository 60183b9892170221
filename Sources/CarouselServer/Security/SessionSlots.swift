import Locks
import NIOCore

/// The cap on WebSocket sessions, held exactly under a burst of upgrades.
///
/// An upgrade takes a slot when it is admitted — one atomic check-and-take
/// under a lock, so that of 3N upgrades at once against a cap of N exactly
/// N are admitted — and its connection holds the slot until it closes,
/// whatever happens in between: an upgrade that fails after admission (the
/// handshake is refused, the client leaves before the 101, the list is gone
/// when the session loads it) gives its slot back when its socket closes,
/// and a session gives it back when it ends and its socket closes.
final class SessionSlots: Sendable {
    /// The most connections admitted as sessions at once.
    let limit: Int
    private let taken = StateLock(0)

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    /// The slots held now.
    var held: Int { taken.withLock { $0 } }

    /// Takes a slot for `channel` until it closes; false at the cap.
    func take(for channel: any Channel) -> Bool {
        let admitted = taken.withLock { taken in
            guard taken < limit else { return false }
            taken += 1
            return true
        }
        // A channel already closed runs this at once: the slot goes back.
        if admitted { channel.closeFuture.whenComplete { _ in self.release() } }
        return admitted
    }

    private func release() {
        taken.withLock { $0 = max(0, $0 - 1) }
    }
}
