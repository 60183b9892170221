import Dispatch
import Geo
import Locks
import MapSync
import StoreCatalog

/// A list of a `CatalogEngine` as the view model's `StoreDirectory`, for
/// the commands that drive the view model or the camera (`camera`,
/// `simulate`, `focus --script`), on either engine.
///
/// `StoreDirectory` is synchronous (an app's view model reads a pin per
/// focused card on the main thread), and the engine is async: each lookup
/// runs on the concurrency runtime's pool and this thread waits for it
/// (``Blocking/wait(_:)``). Only ever from the CLI's main thread, which no
/// async work of the lookup needs.
struct EngineStoreDirectory: StoreDirectory {
    let engine: any CatalogEngine
    let list: String
    let count: Int
    /// The pins looked up so far, up to ``pinCacheLimit``: a simulation
    /// asks again for the cards around the focus, and each lookup is a hop
    /// to the pool and back (about 60 µs of the 0.19 s that 1,200 focus
    /// changes took on SQLite, against 0.12 s read directly;
    /// docs/benchmarks/2026-11-25.md).
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

    /// The directory's pins by index, behind a lock (a `StoreDirectory` is
    /// `Sendable`).
    private final class PinCache: Sendable {
        let lock = StateLock<[Int: StorePin]>([:])
    }

    func index(ofStore id: String) throws -> Int? {
        try Blocking.wait { [engine, list] in try await engine.position(ofStore: id, inList: list) }
    }

    /// The whole store at `index`: its name for a table.
    func store(at index: Int) throws -> Store {
        try Blocking.wait { [engine, list] in try await engine.store(list: list, at: index) }
    }
}

/// Waiting on this thread for async work that runs elsewhere.
enum Blocking {
    /// Runs `work` on the concurrency runtime's pool and blocks this thread
    /// until it ends; returns what it returned or throws what it threw.
    ///
    /// Never from a thread of that pool (it could wait for itself): only
    /// from the CLI's main thread, including an async command's jobs there
    /// (``CallingThreadExecutor``), as `work` does not run on it.
    static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// The result, handed from the task to the waiting thread; the
    /// semaphore orders the write before the read.
    private final class ResultBox<T>: @unchecked Sendable {
        var result: Result<T, any Error>?
    }
}
