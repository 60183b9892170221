import Foundation
import GRDB
import Geo

/// The store catalog: stores with coordinates, ordered store lists, import
/// and spatial queries, in one SQLite database.
///
/// Open one per database file; it is safe to share between threads (calls
/// are serialized on one connection). A query sees every write committed
/// before it, unless the catalog was opened with a `readSnapshotLifetime`:
/// then queries share a read transaction for that long, so that a burst of
/// lookups skips the per-transaction locking, and see other processes'
/// writes that much later.
///
/// ```swift
/// let catalog = try Catalog(path: "carousel.sqlite")
/// let report = try catalog.importList(named: "seoul", from: reader)
/// let nearest = try catalog.nearest(to: Coordinate(latitude: 37.5, longitude: 127), limit: 3)
/// ```
public final class Catalog: Sendable {
    /// The connection: go through ``read(_:)`` and ``write(_:)``, which
    /// manage the read snapshot.
    let database: DatabaseQueue
    private let snapshot: ReadSnapshot
    /// The connections reads run on when this catalog reads on a
    /// connection per lane thread (``concurrentReader()``); nil: its own.
    let laneConnections: LaneConnections?
    /// The data version last read (`dataVersion()` from an async caller).
    package let dataVersionKept = KeptDataVersion()
    /// What searches read of each list, kept until the catalog changes.
    let searchSnapshots = SearchSnapshots()
    /// The cluster indexes of filtered tiles (`clusterTile(list:zoom:x:y:selected:filter:options:)`).
    let filteredClusterIndexes = FilteredClusterIndexes()
    /// The database file, or `:memory:`.
    public let path: String
    /// The change log's retention and clock (``changeLogOptions``).
    let changeLogSettings = ChangeLogSettings()

    /// Whether the catalog lives in this process's memory (``inMemory()``):
    /// no other connection can open it.
    public var isInMemory: Bool { path == CatalogDatabase.inMemoryName }

    /// Whether the catalog was opened read-only (``Access/read`` on a file
    /// this process cannot write, or in a folder it cannot write): every
    /// write fails with ``CatalogError/sqlite(code:message:)`` carrying
    /// `SQLITE_READONLY`, and what a query would store for the next one
    /// (a list's cluster index) is built in memory instead.
    public let isReadOnly: Bool

    /// Opens the catalog at `path`, creating and migrating it as needed.
    ///
    /// Throws ``CatalogError/newerSchema(path:found:known:)`` for a database
    /// written by a newer carousel and ``CatalogError/notACatalog(path:reason:)``
    /// for anything that is not a carousel database.
    public convenience init(path: String) throws {
        try self.init(path: path, access: .readWrite, readSnapshotLifetime: .zero)
    }

    /// How a command means to use a catalog.
    public enum Access: Sendable {
        /// Import and other writes: the file is created and migrated as needed.
        /// A file this process cannot write (or in a folder it cannot write)
        /// is refused with ``CatalogError/sqlite(code:message:)`` carrying
        /// `SQLITE_READONLY` (8).
        case readWrite
        /// Queries only: a file this process cannot write (its permissions,
        /// a read-only mount) is opened read-only instead of failing with
        /// "attempt to write a readonly database"; any other file is opened
        /// as for ``readWrite``.
        case read
    }

    /// Opens the catalog at `path` for `access`.
    ///
    /// With ``Access/read``, a file this process cannot write must already
    /// be a catalog at the latest schema: nothing can migrate it.
    public convenience init(path: String, access: Access) throws {
        try self.init(path: path, access: access, readSnapshotLifetime: .zero)
    }

    /// Opens the catalog at `path` for `access`, its reads sharing one read
    /// transaction for up to `readSnapshotLifetime`.
    ///
    /// A burst of lookups then pays for beginning a read transaction once
    /// per lifetime instead of once per lookup (a quarter of a store lookup
    /// on a large catalog), and the price is staleness: a read may miss what
    /// other processes committed less than `readSnapshotLifetime` before
    /// it. Writes made in this process are always seen. `.zero` makes each
    /// read a transaction of its own.
    public convenience init(path: String, access: Access = .readWrite, readSnapshotLifetime: Duration) throws {
        try self.init(path: path, access: access, readSnapshotLifetime: readSnapshotLifetime, readsOnLaneConnections: false)
    }

    /// As ``init(path:access:readSnapshotLifetime:)``; with
    /// `readsOnLaneConnections`, the async reads each run on a connection
    /// of their lane thread (``concurrentReader()``).
    init(path: String, access: Access, readSnapshotLifetime: Duration, readsOnLaneConnections: Bool) throws {
        let readOnly = Self.isReadOnlyFile(path)
        // Refused before SQLite opens it: it would fall back to reading,
        // and leave a `-shm` and a `-wal` beside the file with the file's
        // read-only permissions, which block its owner's next write.
        if readOnly, access == .readWrite { throw CatalogDatabase.readOnly(path: path) }
        database = try readOnly ? CatalogDatabase.openReadOnly(path: path) : CatalogDatabase.open(path: path)
        isReadOnly = readOnly
        snapshot = ReadSnapshot(database, lifetime: max(.zero, readSnapshotLifetime))
        self.path = path
        laneConnections =
            readsOnLaneConnections
            ? LaneConnections { try Catalog(path: path, access: access, readSnapshotLifetime: readSnapshotLifetime) } : nil
    }

    /// How long reads share one read transaction; zero when each read is
    /// its own (see ``init(path:access:readSnapshotLifetime:)``).
    public var readSnapshotLifetime: Duration { snapshot.lifetime }

    /// Whether `path` names an existing file this process cannot write, or
    /// one in a folder it cannot write (where SQLite could create neither
    /// its journal nor its WAL).
    private static func isReadOnlyFile(_ path: String) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let folder = (path as NSString).deletingLastPathComponent
        return !FileManager.default.isWritableFile(atPath: path)
            || !FileManager.default.isWritableFile(atPath: folder.isEmpty ? "." : folder)
    }

    init(database: DatabaseQueue, path: String, isReadOnly: Bool = false) {
        self.database = database
        self.isReadOnly = isReadOnly
        snapshot = ReadSnapshot(database)
        self.path = path
        laneConnections = nil
    }

    /// A new, empty catalog in memory (for tests and one-off runs).
    public static func inMemory() throws -> Catalog {
        Catalog(database: try CatalogDatabase.inMemory(), path: CatalogDatabase.inMemoryName)
    }

    /// Runs `body` in one read transaction (`ReadSnapshot`): every
    /// statement of `body` sees one state of the database; with a
    /// ``readSnapshotLifetime``, a burst of reads shares the transaction.
    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try mappingErrors { try database.unsafeRead { db in try snapshot.read(db, body) } }
    }

    /// Runs `body` in one write transaction, rolled back if it throws.
    package func write<T>(_ body: (Database) throws -> T) throws -> T {
        // Whatever the outcome, no catalog of this process may read from a
        // snapshot taken before this write any more.
        defer { ReadSnapshot.noteWrite() }
        return try mappingErrors {
            try database.writeWithoutTransaction { db in
                try snapshot.end(db)
                var result: T?
                try db.inTransaction {
                    result = try body(db)
                    return .commit
                }
                return result!
            }
        }
    }

    private func mappingErrors<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw CatalogDatabase.classify(error, path: path)
        }
    }

    /// Throws if the file is damaged; called before a query reports an empty
    /// list.
    ///
    /// SQLite finds a damaged page when a query reads it, but a page that
    /// still looks like an empty B-tree node reads as no rows: a list's
    /// items page overwritten that way made `lists` print 0 and `focus` say
    /// "the list is empty". An empty list is rare (an import of an empty
    /// file), so it can afford `PRAGMA quick_check` — about 70 ms on a
    /// 3 MB catalog, too slow for every query (a cold `focus` is allowed 30).
    func checkIntact(_ db: Database) throws {
        let problems = try String.fetchAll(db, sql: "PRAGMA quick_check(3)")
        guard problems != ["ok"] else { return }
        throw CatalogError.database(CatalogDatabase.damageMessage(path: path, detail: problems.joined(separator: "; ")))
    }

    /// The key of the list named `name`, or ``CatalogError/listNotFound(_:)``.
    func listKey(_ name: String, _ db: Database) throws -> Int64 {
        guard
            let key = try rows(db, "SELECT key FROM lists WHERE name = ?", { $0.bind(name, at: 1) }, { $0.int64(0) })
                .first
        else { throw CatalogError.listNotFound(name) }
        return key
    }
}
