import CatalogServing
import Locks
import MapSyncCatalog
import StoreCatalog

/// The lists that live sessions and simulations show, each read once per
/// version and shared: a hundred sessions on one list hold one copy of its
/// pins, and the first of them reads it (`CatalogStoreDirectory`, on the
/// bulk lane for SQLite) while the others wait for that same read.
///
/// Keyed by the list's name and its version (`CatalogEngine.listVersion`),
/// read before the pins: a list replaced between the two is kept under the
/// older version with the newer pins, which the next look at the version
/// replaces, never the other way round. At most ``capacity`` versions are
/// kept, the least recently asked for going first.
final class SharedLists: Sendable {
    let engine: any ServingCatalog
    /// Versions kept at most.
    let capacity: Int

    private struct Key: Hashable {
        let list: String
        let version: Int64
    }

    private struct State {
        var reads: [Key: Task<CatalogStoreDirectory, any Error>] = [:]
        /// Least recently asked for first.
        var order: [Key] = []
    }

    private let state = StateLock(State())

    init(engine: any ServingCatalog, capacity: Int = 16) {
        self.engine = engine
        self.capacity = max(1, capacity)
    }

    /// The pins of `list` at `version`: read now, or shared with the read
    /// that another session started. A read that fails is not kept.
    func directory(list: String, version: Int64) async throws -> CatalogStoreDirectory {
        let key = Key(list: list, version: version)
        let engine = engine
        let read = state.withLock { state in
            state.order.removeAll { $0 == key }
            state.order.append(key)
            if let kept = state.reads[key] { return kept }
            let read = Task { try await CatalogStoreDirectory(engine: engine, list: list) }
            state.reads[key] = read
            while state.order.count > capacity { state.reads[state.order.removeFirst()] = nil }
            return read
        }
        do {
            return try await read.value
        } catch {
            state.withLock { state in
                if state.reads[key] == read {
                    state.reads[key] = nil
                    state.order.removeAll { $0 == key }
                }
            }
            throw error
        }
    }
}
