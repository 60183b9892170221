import CatalogServing
import StoreCatalog
import Synchronization

/// The catalog's data version as every session sees it: read at most once
/// per `maxAge` for all of them together, so that a thousand sessions
/// following their lists cost one read of the version a second, not a
/// thousand.
final class SharedDataVersion: Sendable {
    let version: CatalogVersion
    private let last = Mutex<(read: ContinuousClock.Instant, number: Int64?)?>(nil)

    init(version: CatalogVersion) {
        self.version = version
    }

    /// The catalog's data version, read no longer than `maxAge` ago; nil
    /// when it cannot be watched (a catalog in memory) or could not be
    /// read now: the caller then looks at its list itself.
    func number(maxAge: Duration) async -> Int64? {
        let now = ContinuousClock.now
        if let cached = last.withLock({ $0 }), now - cached.read < maxAge { return cached.number }
        let number = try? await version.number()
        last.withLock { $0 = (now, number) }
        return number
    }
}
