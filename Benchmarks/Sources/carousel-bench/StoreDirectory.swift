import Foundation
import StoreCatalog

/// A store list in carousel order, in memory: the store lookup both focus
/// pipelines call, the same function for both, and only for the indices they
/// emit.
struct StoreDirectory: Sendable {
    /// What the map needs of a store: its id for the marker, its coordinate
    /// for the camera (seed 002: latitude = store.y, longitude = store.x).
    struct Entry: Sendable, Hashable {
        var id: String
        var latitude: Double
        var longitude: Double
    }

    private let entries: [Entry]

    init(entries: [Entry]) {
        self.entries = entries
    }

    var count: Int { entries.count }

    /// The store at a list position; the position must be in `0..<count`.
    func entry(at position: Int) -> Entry {
        entries[position]
    }

    /// Every entry, in list order (query points are drawn from them).
    var all: [Entry] { entries }

    /// The valid rows of a store file, in file order, read with the
    /// catalog's own streaming reader.
    static func reading(_ url: URL) throws -> StoreDirectory {
        guard let format = ImportFormat(path: url.path) else {
            throw BenchError("\(url.path): unknown store file format; give a .csv, .tsv, .json, .jsonl or .geojson file")
        }
        var reader = try makeStoreRowReader(for: url, format: format)
        var entries: [Entry] = []
        while let row = try reader.next() {
            if case .valid(let store, _) = row {
                entries.append(Entry(id: store.id, latitude: store.latitude, longitude: store.longitude))
            }
        }
        guard !entries.isEmpty else { throw BenchError("\(url.path): no valid store to benchmark with") }
        return StoreDirectory(entries: entries)
    }
}
