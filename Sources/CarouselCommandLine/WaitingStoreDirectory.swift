import CatalogServing
import Geo
import Locks
import MapSync
import StoreCatalog

/// A list of a catalog as the view model's `StoreDirectory` for a command
/// of this process: each pin is looked up when the view model asks for it,
/// this thread waiting for the catalog (``Blocking``).
///
/// Why not the library's `CatalogStoreDirectory`, which reads every pin of
/// the list ahead so that an app's main actor never waits: a command looks
/// up only the stores its script focuses, so `carousel simulate` over a
/// list of ten million stores costs what it uses, in flat memory; and the
/// command's thread is its own, with nothing else to run while it waits.
struct WaitingStoreDirectory: StoreDirectory {
    let engine: any CatalogEngine
    let list: String
    let count: Int
    /// The pins looked up so far, up to ``pinCacheLimit``: a simulation
    /// asks again for the cards around the focus.
    private let pins = PinCache()

    /// Pins kept at most: 4,096 of about 100 bytes, then started afresh.
    static let pinCacheLimit = 4_096

    init(engine: any CatalogEngine, list: String) throws {
        self.engine = engine
        self.list = list
        count = try Blocking.wait { try await engine.count(list: list) }
    }

    func pin(at index: Int) throws -> StorePin {
        if let pin = pins.lock.withLock({ $0[index] }) { return pin }
        let pin = try Blocking.wait { [engine, list] in try await engine.location(list: list, at: index) }
        pins.lock.withLock { kept in
            if kept.count >= Self.pinCacheLimit { kept.removeAll(keepingCapacity: true) }
            kept[index] = pin
        }
        return pin
    }

    func index(ofStore id: String) throws -> Int? {
        try Blocking.wait { [engine, list] in try await engine.position(ofStore: id, inList: list) }
    }

    /// The whole store at `index`: its name for a table.
    func store(at index: Int) throws -> Store {
        try Blocking.wait { [engine, list] in try await engine.store(list: list, at: index) }
    }

    /// The store's name for an accessibility status's `{name}` (looked up
    /// once per status). Hours and distance are an app's words, in its
    /// locale and from where its user stands: the command has neither.
    func statusDetails(at index: Int) throws -> StoreStatusDetails {
        StoreStatusDetails(name: try store(at: index).name)
    }

    /// The pins by index, behind a lock (a `StoreDirectory` is `Sendable`).
    private final class PinCache: Sendable {
        let lock = StateLock<[Int: StorePin]>([:])
    }
}
