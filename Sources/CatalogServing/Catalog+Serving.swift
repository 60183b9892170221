import Foundation
import StoreCatalog
import WorkLanes

/// The SQLite catalog as a ``ServingCatalog``: its tokens, reads beside
/// each other, its change watch and nearest snapshot, each async call on
/// the work lane its work belongs to (as in StoreCatalog's `Catalog+Engine.swift`).
extension Catalog: ServingCatalog, CatalogChangeWatch {

    public func concurrentReader() throws -> (any ServingCatalog)? {
        try openConcurrentReader()
    }

    public func changeWatch() throws -> (any CatalogChangeWatch)? {
        try openChangeWatch()
    }

    public func schemaVersion() async throws -> Int {
        try await onLane(.interactive) { try $0.schemaVersion() }
    }

    /// Read on this catalog's own connection, whose number it is (another
    /// connection's count is another count); a server asks at every
    /// request (entity tags, the nearest snapshot's freshness), so the
    /// number is kept for as long as reads share a snapshot
    /// (``readSnapshotLifetime``) and no write of this process happened
    /// since: what a read inside that snapshot would have answered,
    /// without a trip to the lane. (A commit of another process may then
    /// show up to two lifetimes late: the snapshot read, and the keeping.)
    public func dataVersion() async throws -> Int64 {
        if let kept = dataVersionKept.fresh(lifetime: readSnapshotLifetime) { return kept }
        let asked = ContinuousClock.now, writes = ReadSnapshot.writesSoFar
        let version = try await WorkLane.interactive.run { try self.dataVersion() }
        dataVersionKept.keep(version, asked: asked, writes: writes)
        return version
    }

    public func nearestSnapshot<Element: Sendable>(maxEntries: Int, _ element: (Store) throws -> Element) async throws
        -> NearestSnapshot<Element>?
    {
        try await onLane(.bulk) { try $0.nearestSnapshot(maxEntries: maxEntries, element) }
    }

    public func verifyToken(_ token: String) async throws -> (name: String, scope: TokenScope)? {
        try await onLane(.interactive) { try $0.verifyToken(token) }
    }

    public func hasWriteToken() async throws -> Bool {
        try await onLane(.interactive) { try $0.hasWriteToken() }
    }

    public func tokens() async throws -> [TokenSummary] {
        try await onLane(.interactive) { try $0.tokens() }
    }

    public func createToken(named name: String, scope: TokenScope) async throws -> String {
        try await writing { try $0.createToken(named: name, scope: scope) }
    }

    public func revokeToken(named name: String) async throws {
        try await writing { try $0.revokeToken(named: name) }
    }

    public func noteTokenUsed(named name: String, at date: Date) async throws {
        try await writing { try $0.noteTokenUsed(named: name, at: date) }
    }
}
