import Foundation
import StoreCatalog
import WorkLanes

/// A list of a server kept in the app's own SQLite catalog: offline first,
/// brought up to date by pulling what changed (issue 45).
///
/// ```swift
/// let catalog = try await Catalog.open(path: "stores.sqlite")
/// let source = ChangeSource(server: URL(string: "https://stores.example.com")!, list: "seoul")
/// let replica = CatalogReplica(catalog: catalog, list: "seoul", source: source)
/// let report = try await replica.sync()
/// ```
///
/// How it holds together:
/// - Each page is applied in ONE transaction with the cursor that follows
///   it (the replica's rows, `sync_replicas.cursor`), and only if the page
///   was asked for with the cursor held. A kill or a lost connection
///   leaves the last whole page; the next sync resumes after it, and no
///   page applies twice.
/// - The local list the app reads is written only at a page marked
///   `upToDate`, whose checksum must be the sum of what the replica holds
///   (PowerSync's checkpoints): the app never shows half a download or a
///   mix of two versions. On a mismatch the replica downloads the list
///   again and says so in its report.
/// - A cursor too old for the server (410) starts the download again.
///
/// SQLite runs on the package's writes lane, never on the caller's thread.
public final class CatalogReplica: Sendable {
    public let catalog: Catalog
    /// The local list the replica writes.
    public let list: String
    public let source: ChangeSource

    public init(catalog: Catalog, list: String, source: ChangeSource) {
        self.catalog = catalog
        self.list = list
        self.source = source
    }

    /// Progress through one sync, after each page applied.
    public struct Progress: Sendable, Hashable {
        /// Changes applied so far in this sync.
        public var changes: Int
        /// Bytes of pages read so far.
        public var bytes: Int
        /// Whether the page just applied was the last.
        public var upToDate: Bool
    }

    /// What one sync did.
    public struct Report: Sendable, Hashable {
        /// Stores the replica did not hold, then held.
        public var added = 0
        /// Stores whose data or place changed.
        public var changed = 0
        /// Stores deleted.
        public var removed = 0
        /// Bytes of the pages read.
        public var bytes = 0
        /// Pages applied.
        public var pages = 0
        /// Whether the local list was written (false: it was up to date).
        public var listWritten = false
        /// Why the replica downloaded the list again during this sync:
        /// the server's 410, or a checksum that did not match (reported,
        /// never silent).
        public var resyncs: [String] = []
    }

    /// Pulls pages of `pageSize` changes until the replica is up to date.
    /// Throws ``SyncError`` (and what the transport throws); the replica is
    /// then as the last applied page left it.
    @discardableResult
    public func sync(pageSize: Int = 5_000, progress: (@Sendable (Progress) -> Void)? = nil) async throws -> Report {
        guard (1...100_000).contains(pageSize) else { throw SyncError.badServer("page size must be in 1...100000 (got \(pageSize))") }
        let catalog = catalog, list = list, identity = source.identity
        let state = try await WorkLane.interactive.run { try catalog.replicaState(list: list) }
        var cursor = state?.cursor
        if state == nil || state?.source != identity {
            // Another server's (or list's) cursor means nothing here.
            try await WorkLane.writes.run { try catalog.resetReplica(list: list, source: identity) }
            cursor = nil
        }
        var report = Report()
        var applied = 0
        while true {
            let page: ChangePage, bytes: Int
            do {
                (page, bytes) = try await source.page(since: cursor, limit: pageSize)
            } catch SyncError.resyncRequired {
                guard report.resyncs.count < 2 else { throw SyncError.resyncRequired }
                report.resyncs.append("the server no longer keeps the changes since the last sync (410)")
                try await WorkLane.writes.run { try catalog.resetReplica(list: list, source: identity) }
                cursor = nil
                continue
            }
            guard !page.changes.isEmpty || page.upToDate else {
                throw SyncError.badServer("a page with no change that is not the last")
            }
            let outcome: ReplicaPageOutcome
            do {
                let after = cursor
                outcome = try await WorkLane.writes.run {
                    try catalog.applyReplicaPage(list: list, source: identity, after: after, page: page)
                }
            } catch let error as ReplicaPageError {
                switch error {
                case .checksumMismatch:
                    guard report.resyncs.count < 2 else { throw SyncError.checksumMismatch(error.description) }
                    report.resyncs.append("checksum mismatch: \(error.description); downloaded again")
                    try await WorkLane.writes.run { try catalog.resetReplica(list: list, source: identity) }
                    cursor = nil
                    continue
                case .invalidPage(let reason): throw SyncError.badServer(reason)
                case .outOfOrder: throw SyncError.badServer(error.description)
                }
            }
            cursor = page.next
            report.added += outcome.added
            report.changed += outcome.changed
            report.removed += outcome.removed
            report.bytes += bytes
            report.pages += 1
            report.listWritten = report.listWritten || outcome.listWritten
            applied += page.changes.count
            progress?(Progress(changes: applied, bytes: report.bytes, upToDate: page.upToDate))
            if page.upToDate { return report }
        }
    }
}
