import Clustering
import Foundation
import Geo
import Locks
import WorkLanes

/// The SQLite catalog as a ``CatalogEngine``: every async call runs its
/// SQLite work on a `WorkLane` (docs/concurrency.md), never on the caller's
/// thread, so that a cooperative thread, an event loop or the main actor
/// that awaits it is free meanwhile.
///
/// Each async method is the synchronous one of the same name, run on the
/// lane its work belongs to, as GRDB's `read` and `write` come in both
/// forms: in an `async` context the compiler picks these (and asks for
/// `await`), elsewhere the synchronous ones.
/// - Short reads a person waits for go to the interactive lane.
/// - Reads of a whole list or catalog, cluster indexes and searches go to
///   the bulk lane.
/// - Writes go to the writes lane, one at a time.
///
/// A catalog made by ``openConcurrentReader()`` (a server's reader) reads
/// on a connection of the lane thread it runs on (opened on its first read
/// there), so that reads run beside each other, as many at once as the
/// lanes have threads, and never wait for one another's connection.
extension Catalog: CatalogEngine {
    public var location: String { path }

    /// A catalog of the same file whose async reads each run on a
    /// connection of their lane thread; nil for a catalog in memory, which
    /// no other connection can open.
    package func openConcurrentReader() throws -> Catalog? {
        isInMemory
            ? nil
            : try Catalog(path: path, access: .read, readSnapshotLifetime: Self.serverReadSnapshotLifetime, readsOnLaneConnections: true)
    }

    /// A catalog of the same file on a connection of its own, whose data
    /// version moves with every commit of any other; nil in memory.
    package func openChangeWatch() throws -> Catalog? {
        isInMemory ? nil : try Catalog(path: path, access: .read, readSnapshotLifetime: Self.serverReadSnapshotLifetime)
    }

    /// How long the reads of a server's connection share one read
    /// transaction: a millisecond.
    ///
    /// Beginning and ending a read transaction is a quarter of a store
    /// lookup (an `fcntl` lock on the WAL index each way), and a server
    /// reads in bursts — a page of a list, the candidates of a nearest
    /// search, many clients at once. The staleness this allows is bounded
    /// by it: a commit made by another process (a `carousel import` beside
    /// the server) is seen at most a millisecond late. A server's own
    /// imports are seen at once, since every write of the process ends the
    /// snapshots taken before it.
    public static let serverReadSnapshotLifetime = Duration.milliseconds(1)

    /// Opens the catalog at `path` for `access` as ``init(path:access:)``
    /// does, on the interactive lane: opening reads the file (and may
    /// migrate it), which an async caller — the main actor, a cooperative
    /// thread — must not wait for on its own thread.
    public static func open(path: String, access: Access = .readWrite) async throws -> Catalog {
        try await WorkLane.interactive.run { try Catalog(path: path, access: access) }
    }

    // MARK: Where the work runs

    /// Runs `body` on `lane` with the connection reads there use: this
    /// catalog's own, or the lane thread's (``concurrentReader()``).
    package func onLane<T>(_ lane: WorkLane, _ body: (Catalog) throws -> T) async throws -> T {
        try await lane.run { try body(try laneConnection()) }
    }

    /// Runs `body` on the writes lane with this catalog's own connection.
    package func writing<T>(_ body: (Catalog) throws -> T) async throws -> T {
        try await WorkLane.writes.run { try body(self) }
    }

    /// The connection of the lane thread this runs on, when this catalog
    /// reads on such connections; else the catalog itself.
    private func laneConnection() throws -> Catalog {
        guard let laneConnections, let (lane, thread) = WorkLane.current else { return self }
        return try laneConnections.connection(lane: lane, thread: thread)
    }

    // MARK: Reads a person waits for

    public func lists() async throws -> [ListSummary] {
        try await onLane(.interactive) { try $0.lists() }
    }

    public func count(list: String) async throws -> Int {
        try await onLane(.interactive) { try $0.count(list: list) }
    }

    public func store(list: String, at position: Int) async throws -> Store {
        try await onLane(.interactive) { try $0.store(list: list, at: position) }
    }

    public func location(list: String, at position: Int) async throws -> StorePin {
        try await onLane(.interactive) { try $0.location(list: list, at: position) }
    }

    public func position(ofStore id: String, inList list: String) async throws -> Int? {
        try await onLane(.interactive) { try $0.position(ofStore: id, inList: list) }
    }

    public func nearest(to origin: Coordinate, limit: Int, withinMeters: Double?, list: String?) async throws -> [StoreDistance] {
        try await onLane(.interactive) { try $0.nearest(to: origin, limit: limit, withinMeters: withinMeters, list: list) }
    }

    public func stores(in box: BoundingBox, list: String?, limit: Int) async throws -> [Store] {
        try await onLane(.interactive) { try $0.stores(in: box, list: list, limit: limit) }
    }

    public func stores(list: String, from position: Int, limit: Int) async throws -> [Store] {
        try await onLane(.interactive) { try $0.stores(list: list, from: position, limit: limit) }
    }

    public func store(list: String, id: String) async throws -> Store? {
        try await onLane(.interactive) { try $0.store(list: list, id: id) }
    }

    public func listVersion(named name: String) async throws -> Int64? {
        try await onLane(.interactive) { try $0.listVersion(named: name) }
    }

    // MARK: Work measured in milliseconds to seconds

    public func info() async throws -> CatalogInfo {
        try await onLane(.bulk) { try $0.info() }
    }

    public func stores(in box: BoundingBox, list: String?) async throws -> [Store] {
        try await onLane(.bulk) { try $0.stores(in: box, list: list) }
    }

    public func forEachStore(
        list: String, offset: Int, limit: Int?, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws {
        try await onLane(.bulk) { try $0.forEachStore(list: list, offset: offset, limit: limit, body) }
    }

    public func forEachStore(
        list: String, at positions: some Sequence<Int>, _ body: (_ position: Int, _ store: Store) throws -> Void
    ) async throws {
        try await onLane(.bulk) { try $0.forEachStore(list: list, at: positions, body) }
    }

    public func forEachPin(list: String, _ body: (_ position: Int, _ pin: StorePin) throws -> Void) async throws {
        try await onLane(.bulk) { try $0.forEachPin(list: list, body) }
    }

    public func clusters(list: String, zoom: Double, box: BoundingBox, selected: Int?, options: ClusterOptions) async throws
        -> [ListMarker]
    {
        try await onLane(.bulk) { try $0.clusters(list: list, zoom: zoom, box: box, selected: selected, options: options) }
    }

    public func clusterTile(
        list: String, zoom: Int, x: Int, y: Int, selected: Int?, filter: StoreFilter, options: ClusterOptions
    ) async throws -> [ListTileFeature] {
        try await onLane(.bulk) {
            try $0.clusterTile(list: list, zoom: zoom, x: x, y: y, selected: selected, filter: filter, options: options)
        }
    }

    public func clusterTiles(list: String, tiles: [TileAddress], selected: Int?, filter: StoreFilter, options: ClusterOptions)
        async throws -> [[ListTileFeature]]
    {
        try await onLane(.bulk) { try $0.clusterTiles(list: list, tiles: tiles, selected: selected, filter: filter, options: options) }
    }

    public func clusterTileAddresses(list: String, zoom: Int, filter: StoreFilter, options: ClusterOptions) async throws
        -> [TileAddress]
    {
        try await onLane(.bulk) { try $0.clusterTileAddresses(list: list, zoom: zoom, filter: filter, options: options) }
    }

    public func clusterLeaves(list: String, cluster id: Int, limit: Int, offset: Int, options: ClusterOptions) async throws
        -> [ListMarker]
    {
        try await onLane(.bulk) { try $0.clusterLeaves(list: list, cluster: id, limit: limit, offset: offset, options: options) }
    }

    public func unclusterZoom(list: String, position: Int, options: ClusterOptions) async throws -> Int {
        try await onLane(.bulk) { try $0.unclusterZoom(list: list, position: position, options: options) }
    }

    /// On this catalog's own connection, not the lane thread's: a search
    /// reads its list into memory once (its search snapshot, 272 ms for
    /// 234,908 stores) and keeps it for the next, per connection. That
    /// first read is bulk work; a search over a kept snapshot is a read a
    /// person waits for (0.9 ms median, 5.6 ms p99 on those stores,
    /// BENCHMARKS.md), which queued behind cluster answers on the bulk
    /// lane answered 8 times fewer searches a second beside two cluster
    /// loops (the realtime benchmark).
    public func search(_ search: StoreSearch) async throws -> SearchPage {
        if let page = try await WorkLane.interactive.run({ try self.searchIfSnapshotKept(search) }) { return page }
        return try await WorkLane.bulk.run { try self.search(search) }
    }

    /// A page of changes: a small one (an app's sync of what changed) on
    /// the interactive lane, a page of a download from scratch on the bulk
    /// lane, where it never queues ahead of a live session's reads.
    public func changes(list: String, since: String?, limit: Int) async throws -> ChangePage {
        try await onLane(limit <= 1_000 ? .interactive : .bulk) { try $0.changes(list: list, since: since, limit: limit) }
    }

    // MARK: Writes, one at a time

    public func importList(named name: String, from reader: some StoreRowReader, options: ImportOptions) async throws
        -> ImportReport
    {
        try await writing { try $0.importList(named: name, from: reader, options: options) }
    }

    public func renameList(_ name: String, to newName: String) async throws {
        try await writing { try $0.renameList(name, to: newName) }
    }

    public func deleteList(_ name: String) async throws -> ListDeletion {
        try await writing { try $0.deleteList(name) }
    }

}

/// The read connections of a catalog's file, one per lane thread
/// (``Catalog/openConcurrentReader()``), opened on the thread's first read.
final class LaneConnections: Sendable {
    private let open: @Sendable () throws -> Catalog
    private let opened = StateLock<[Key: Catalog]>([:])

    private struct Key: Hashable {
        let lane: ObjectIdentifier
        let thread: Int
    }

    init(open: @escaping @Sendable () throws -> Catalog) {
        self.open = open
    }

    /// The connection of `thread` of `lane`; called on that thread only,
    /// so a connection is opened once and used by one thread at a time.
    func connection(lane: WorkLane, thread: Int) throws -> Catalog {
        let key = Key(lane: ObjectIdentifier(lane), thread: thread)
        if let kept = opened.withLock({ $0[key] }) { return kept }
        let fresh = try open()
        opened.withLock { $0[key] = fresh }
        return fresh
    }
}

/// The last data version read, with when and after how many of this
/// process's writes (``Catalog/dataVersion()``).
package final class KeptDataVersion: Sendable {
    private let kept = StateLock<(version: Int64, asked: ContinuousClock.Instant, writes: UInt64)?>(nil)

    /// The version kept, if younger than `lifetime` and no write happened
    /// since it was read.
    package func fresh(lifetime: Duration) -> Int64? {
        guard lifetime > .zero else { return nil }
        let now = ContinuousClock.now
        let writes = ReadSnapshot.writesSoFar
        return kept.withLock { kept in
            guard let kept, kept.writes == writes, now - kept.asked < lifetime else { return nil }
            return kept.version
        }
    }

    /// Keeps `version`, read from a call made at `asked` after `writes`
    /// writes of this process.
    package func keep(_ version: Int64, asked: ContinuousClock.Instant, writes: UInt64) {
        kept.withLock { $0 = (version, asked, writes) }
    }
}
