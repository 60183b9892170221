import CatalogServing
import Locks
import StoreCatalog

/// The version of the catalog's data, or of one list's, as an entity tag:
/// the catalog's changes with every commit to the catalog, by this server
/// or another process or node; a list's only when that list changes
/// (``CatalogChangeWatch/listVersion(named:)``).
///
/// It is the engine's ``CatalogChangeWatch``: on SQLite `PRAGMA
/// data_version` read on a connection of its own, which moves whenever
/// another connection commits (this server's imports go through another
/// one); on PostgreSQL the catalog's change counter as `NOTIFY` reports it.
/// SQLite's number starts again with each connection, so the tag also
/// carries a random number drawn when the server starts: a tag from an
/// earlier run never matches.
final class CatalogVersion: Sendable {
    /// nil for a catalog in memory, which no other connection can watch:
    /// its answers carry no tag.
    let watch: (any CatalogChangeWatch)?
    private let run: String
    /// List versions read at one data version: valid while it stays.
    private let known = StateLock(KnownVersions())

    private struct KnownVersions {
        var dataVersion: Int64 = -1
        var lists: [String: Int64] = [:]
    }

    /// The most list versions kept: names of lists, bounded so that
    /// clients naming many lists cannot grow it.
    static let maxKnownLists = 4096

    /// The watch is the engine's (``CatalogEngine/changeWatch()``): on
    /// SQLite a reader like the server's, whose version may lag another
    /// process's commit by the readers' millisecond, never this server's.
    init(engine: any ServingCatalog) throws {
        watch = try engine.changeWatch()
        run = String(UInt64.random(in: 0 ... .max), radix: 36)
    }

    /// The data version now (nil for a catalog in memory).
    func number() async throws -> Int64? {
        try await watch?.dataVersion()
    }

    /// The strong entity tag of the catalog's data now, quoted (RFC 9110 §8.8.3).
    func entityTag() async throws -> String? {
        guard let watch else { return nil }
        return "\"\(run)-\(try await watch.dataVersion())\""
    }

    /// The strong entity tag of list `name`'s data now; nil when there is
    /// no such list (or the catalog is in memory).
    ///
    /// The data version is read first and the list's version after it, so
    /// a version kept for a data version is never older than it; any
    /// commit moves the data version and drops what was kept. One query
    /// per request, as the catalog's tag costs, while nothing commits.
    func entityTag(list name: String) async throws -> String? {
        guard let watch else { return nil }
        let data = try await watch.dataVersion()
        if let version = known.withLock({ $0.dataVersion == data ? $0.lists[name] : nil }) {
            return "\"\(run)-list-\(version)\""
        }
        guard let version = try await watch.listVersion(named: name) else { return nil }
        known.withLock { known in
            if known.dataVersion != data || known.lists.count >= Self.maxKnownLists {
                known = KnownVersions(dataVersion: data)
            }
            known.lists[name] = version
        }
        return "\"\(run)-list-\(version)\""
    }
}
