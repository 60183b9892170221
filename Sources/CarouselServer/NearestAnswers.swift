import CarouselJSON
import Dispatch
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
/// The snapshot is one state of the catalog. Before each answer, a
/// connection of its own reads the catalog's ``Catalog/dataVersion()``,
/// which moves on every commit of any other connection — this server's
/// imports and another process's alike; when it has moved, requests are
/// answered through SQLite while a new snapshot is built in the background,
/// so no answer is ever staler than SQLite's own. A catalog of more than
/// ``maxEntries`` stores and list items is never held (about 130 bytes
/// each, with the JSON): it stays on SQLite, whose memory does not grow.
final class NearestAnswers: Sendable {
    /// The snapshot's element: a store's JSON object without its closing
    /// brace (``StoreJSON/openObject(_:)``), so that the distance can
    /// follow its last member.
    typealias Snapshot = NearestSnapshot<[UInt8]>

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
    /// Where the snapshot is built from; nil when it is in memory (tests)
    /// or `maxEntries` is 0: then every answer comes from SQLite.
    private let path: String?
    /// The connection whose data version is watched.
    private let watch: Catalog?
    private let state = StateLock(State())
    /// Builds run here, one at a time, off the request threads.
    private let builder = DispatchQueue(label: "carousel.nearest-snapshot", qos: .utility)

    /// A catalog whose file cannot be opened a second time answers
    /// through SQLite only.
    init(catalog: Catalog, maxEntries: Int) {
        self.maxEntries = maxEntries
        guard !catalog.isInMemory, maxEntries > 0,
            let watch = try? Catalog(path: catalog.path, access: .read, readSnapshotLifetime: CatalogReaders.readSnapshotLifetime)
        else {
            path = nil
            watch = nil
            return
        }
        path = catalog.path
        self.watch = watch
    }

    /// The JSON answer from the snapshot of the catalog's current state; nil
    /// when there is none (being built, or the catalog is too large), which
    /// starts a build if it is worth one.
    func answer(to origin: Coordinate, limit: Int, withinMeters: Double?, list: String?) throws -> ByteBuffer? {
        guard let watch, let path else { return nil }
        let version = try watch.dataVersion()
        guard let snapshot = startBuildUnlessCurrent(path: path, version: version) else { return nil }
        let found = try snapshot.nearest(to: origin, limit: limit, withinMeters: withinMeters, list: list)
        return ByteBuffer(bytes: StoreJSON.array(openObjects: found.map { ($0.element, $0.distanceMeters) }))
    }

    /// Starts building the snapshot of the catalog's current state in the
    /// background, unless it is held or being built: what a server does as
    /// it starts, so that its first requests do not pay for it.
    func prepareInBackground() throws {
        guard let watch, let path else { return }
        _ = startBuildUnlessCurrent(path: path, version: try watch.dataVersion())
    }

    /// The snapshot if it is of `version`; else nil, after starting a build
    /// if none is under way and `version` was not found too large.
    private func startBuildUnlessCurrent(path: String, version: Int64) -> Snapshot? {
        let (snapshot, build) = state.withLock { state -> (Snapshot?, Bool) in
            if state.version == version, let snapshot = state.snapshot { return (snapshot, false) }
            guard !state.isBuilding, state.refusedVersion != version else { return (nil, false) }
            state.isBuilding = true
            return (nil, true)
        }
        if build { startBuild(path: path, version: version) }
        return snapshot
    }

    /// Whether the held snapshot is of the catalog's current state.
    func isCurrent() throws -> Bool {
        guard let watch else { return false }
        let version = try watch.dataVersion()
        return state.withLock { $0.version == version && $0.snapshot != nil }
    }

    /// Builds the snapshot of the current state now; true when it is held.
    func buildNow() throws -> Bool {
        guard let watch, let path else { return false }
        let version = try watch.dataVersion()
        state.withLock { $0.isBuilding = true }
        return try build(path: path, version: version)
    }

    private func startBuild(path: String, version: Int64) {
        builder.async { [self] in
            do {
                _ = try build(path: path, version: version)
            } catch {
                // SQLite keeps answering; the next change of version tries
                // again, rather than every request.
                state.withLock { $0.refusedVersion = version }
            }
        }
    }

    /// Reads the snapshot through a connection of its own: it is at
    /// `version` or later, so a request that sees a later version builds
    /// again rather than trust it.
    private func build(path: String, version: Int64) throws -> Bool {
        defer { state.withLock { $0.isBuilding = false } }
        let snapshot = try Catalog(path: path, access: .read).nearestSnapshot(maxEntries: maxEntries, StoreJSON.openObject)
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
