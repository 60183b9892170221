import CarouselJSON
import CatalogServing
import Locks
import NIOCore
import StoreCatalog

/// `GET /stores/near` answered from memory: a ``NearestSnapshot`` of the
/// catalog whose elements are the stores' JSON, ready to send.
///
/// Why: through SQLite the endpoint ran at a quarter of the framework's
/// ceiling (a constant body of the same size): per request 66 µs of index
/// seeks, 26 µs fetching and decoding ten stores, 19 µs encoding them again
/// (BENCHMARKS.md, server). From the snapshot a request is a k-d tree walk
/// and ten copies.
///
/// The snapshot is one state of the catalog. Before each answer, the
/// engine's ``CatalogChangeWatch`` gives the catalog's data version, which
/// moves on every commit — this server's imports, another process's or
/// another node's alike; when it has moved, requests are answered by the
/// catalog while a new snapshot is built in the background, so no answer
/// is staler than the watch. A catalog of more than ``maxEntries`` stores
/// and list items is never held (about 125 bytes each, with the JSON): it
/// stays on the catalog, whose memory does not grow. Nothing is held
/// before the first request: a server that answers none never pays for it.
final class NearestAnswers: Sendable {
    /// The snapshot, whose element is where each store's JSON object is in
    /// `objects`, each without its closing brace
    /// (``StoreJSON/appendOpenObject(_:to:)``), so that the distance can
    /// follow its last member.
    struct Snapshot: Sendable {
        let stores: NearestSnapshot<PackedObjects.Address>
        let objects: PackedObjects
    }

    private struct State {
        var snapshot: Snapshot?
        /// The data version `snapshot` was built at.
        var version: Int64?
        var isBuilding = false
        /// A version found over ``maxEntries``, or whose build failed: not
        /// tried again.
        var refusedVersion: Int64?
    }

    let maxEntries: Int
    /// The catalog, and the watch of its data version; nil when it cannot
    /// be watched (in memory, in tests) or `maxEntries` is 0: then every
    /// answer comes from the catalog.
    private let source: (engine: any ServingCatalog, watch: any CatalogChangeWatch)?
    private let state = StateLock(State())
    /// The last build started in the background.
    private let background = StateLock<Task<Void, Never>?>(nil)

    init(engine: any ServingCatalog, watch: (any CatalogChangeWatch)?, maxEntries: Int) {
        self.maxEntries = maxEntries
        source = maxEntries > 0 ? watch.map { (engine, $0) } : nil
    }

    /// The JSON answer from the snapshot of the catalog's current state; nil
    /// when there is none (being built, or the catalog is too large), which
    /// starts a build if it is worth one.
    func answer(to origin: Coordinate, limit: Int, withinMeters: Double?, list: String?) async throws -> ByteBuffer? {
        guard let source else { return nil }
        let version = try await source.watch.dataVersion()
        guard let snapshot = startBuildUnlessCurrent(version: version) else { return nil }
        let found = try snapshot.stores.nearest(to: origin, limit: limit, withinMeters: withinMeters, list: list)
        return ByteBuffer(
            bytes: StoreJSON.array(
                openObjects: found.map { (snapshot.objects[$0.element], $0.distanceMeters) }))
    }

    /// Starts building the snapshot of the catalog's current state in the
    /// background, unless it is held or being built: what a server does as
    /// it starts, so that its first requests do not pay for it.
    func prepareInBackground() async throws {
        guard let source else { return }
        _ = startBuildUnlessCurrent(version: try await source.watch.dataVersion())
    }

    /// The snapshot if it is of `version`; else nil, after starting a build
    /// if none is under way and `version` was not found too large.
    private func startBuildUnlessCurrent(version: Int64) -> Snapshot? {
        let (snapshot, build) = state.withLock { state -> (Snapshot?, Bool) in
            if state.version == version, let snapshot = state.snapshot { return (snapshot, false) }
            guard !state.isBuilding, state.refusedVersion != version else { return (nil, false) }
            state.isBuilding = true
            return (nil, true)
        }
        if build {
            let building = Task {
                do {
                    _ = try await self.build(version: version)
                } catch {
                    // The catalog keeps answering; the next change of
                    // version tries again, rather than every request.
                    self.state.withLock { $0.refusedVersion = version }
                }
            }
            background.withLock { $0 = building }
        }
        return snapshot
    }

    /// Returns once the build started in the background, if any, has
    /// ended: a test waits for it rather than poll the clock.
    func backgroundBuildEnded() async {
        await background.withLock { $0 }?.value
    }

    /// Whether the held snapshot is of the catalog's current state.
    func isCurrent() async throws -> Bool {
        guard let source else { return false }
        let version = try await source.watch.dataVersion()
        return state.withLock { $0.version == version && $0.snapshot != nil }
    }

    /// Builds the snapshot of the current state now; true when it is held.
    func buildNow() async throws -> Bool {
        guard let source else { return false }
        let version = try await source.watch.dataVersion()
        state.withLock { $0.isBuilding = true }
        return try await build(version: version)
    }

    /// Reads the snapshot (on SQLite, on the bulk lane): it is at `version`
    /// or later, so a request that sees a later version builds again
    /// rather than trust it.
    private func build(version: Int64) async throws -> Bool {
        defer { state.withLock { $0.isBuilding = false } }
        guard let source else { return false }
        let maxEntries = maxEntries
        var objects = PackedObjects()
        let stores = try await source.engine.nearestSnapshot(maxEntries: maxEntries) { store in
            objects.append { StoreJSON.appendOpenObject(store, to: &$0) }
        }
        let snapshot = stores.map { Snapshot(stores: $0, objects: objects) }
        state.withLock { state in
            if let snapshot {
                state.snapshot = snapshot
                state.version = version
            } else {
                state.snapshot = nil
                state.refusedVersion = version
            }
        }
        return snapshot != nil
    }
}
