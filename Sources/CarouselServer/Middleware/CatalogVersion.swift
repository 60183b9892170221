import StoreCatalog

/// The version of the catalog's data as an entity tag: it changes with
/// every commit to the catalog, by this server or another process.
///
/// It is SQLite's `PRAGMA data_version` read on a connection of its own,
/// which moves whenever another connection commits (this server's imports
/// go through another one). That number starts again with each
/// connection, so the tag also carries a random number drawn when the
/// server starts: a tag from an earlier run never matches.
final class CatalogVersion: Sendable {
    /// nil for a catalog in memory, which no other connection can watch:
    /// its answers carry no tag.
    private let watch: Catalog?
    private let run: String

    init(catalog: Catalog) {
        watch = catalog.isInMemory ? nil : try? Catalog(path: catalog.path, access: .read)
        run = String(UInt64.random(in: 0 ... .max), radix: 36)
    }

    /// The data version now (nil for a catalog in memory).
    func number() throws -> Int64? {
        try watch?.dataVersion()
    }

    /// The strong entity tag of the catalog's data now, quoted (RFC 9110 §8.8.3).
    func entityTag() throws -> String? {
        guard let watch else { return nil }
        return "\"\(run)-\(try watch.dataVersion())\""
    }
}
