import Geo
import Locks
import MapSync
import StoreCatalog

/// A list of a catalog as the view model's `StoreDirectory`, on either
/// engine: what the CLI's `camera`, `simulate` and `focus --script`, and
/// the server's sessions and simulations, drive the view model over.
///
/// `StoreDirectory` is synchronous (an app's view model reads a pin per
/// focused card on the main thread), and the engine is async: each lookup
/// runs on the concurrency runtime's pool and this thread waits for it
/// (`Blocking.wait`). Never from a thread of that pool: from the CLI's
/// main thread, or a session's dispatch queue, which no async work of the
/// lookup needs.
public struct CatalogStoreDirectory: StoreDirectory {
    public let engine: any CatalogEngine
    public let list: String
    public let count: Int
    /// The pins looked up so far, up to ``pinCacheLimit``: a simulation
    /// asks again for the cards around the focus, and each lookup is a hop
    /// to the pool and back (about 60 µs of the 0.19 s that 1,200 focus
    /// changes took on SQLite, against 0.12 s read directly;
    /// docs/benchmarks/2026-11-25.md).
    private let pins = PinCache()

    /// Pins kept at most: 4,096 of about 100 bytes, then started afresh.
    static let pinCacheLimit = 4_096

    public init(engine: any CatalogEngine, list: String) throws {
        self.engine = engine
        self.list = list
        count = try Blocking.wait { try await engine.count(list: list) }
    }

    public func pin(at index: Int) throws -> StorePin {
        if let pin = pins.lock.withLock({ $0[index] }) { return pin }
        let pin = try Blocking.wait { [engine, list] in try await engine.location(list: list, at: index) }
        pins.lock.withLock { kept in
            if kept.count >= Self.pinCacheLimit { kept.removeAll(keepingCapacity: true) }
            kept[index] = pin
        }
        return pin
    }

    /// The directory's pins by index, behind a lock (a `StoreDirectory` is
    /// `Sendable`).
    private final class PinCache: Sendable {
        let lock = StateLock<[Int: StorePin]>([:])
    }

    public func index(ofStore id: String) throws -> Int? {
        try Blocking.wait { [engine, list] in try await engine.position(ofStore: id, inList: list) }
    }

    /// The whole store at `index`: its name for a table.
    public func store(at index: Int) throws -> Store {
        try Blocking.wait { [engine, list] in try await engine.store(list: list, at: index) }
    }
}
