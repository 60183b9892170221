import GRDB

/// Collects an import's spatial index entries and writes them in the
/// index's key order, in memory that does not grow with the file.
///
/// Entries arrive in file order, random for the index; inserting them so
/// would touch a random B-tree page per row. They are sorted first, up to
/// ``memoryLimit`` entries (8 MiB) in memory as before; past that — a list
/// of millions of stores, whose entries alone would take 32 bytes each,
/// 305 MiB at 10⁷ — in sorted runs on disk merged back in order
/// (``ExternalSort``).
struct SpatialIndexWriter {
    /// The most entries held in memory (32 bytes each): 8 MiB. The 234,908
    /// GeoNames places stay under it and are sorted in memory alone.
    static let memoryLimit = 262_144

    private let list: Int64
    private let db: Database
    private var entries: ExternalSort<SpatialIndex.Entry>
    /// Entries added so far: the list's imported stores.
    var count: Int { entries.count }

    init(list: Int64, limit: Int = memoryLimit, _ db: Database) {
        self.list = list
        self.db = db
        entries = ExternalSort(runLength: limit)
    }

    mutating func append(store: Int64, latitude: Double, longitude: Double) throws {
        try entries.append(SpatialIndex.Entry(store: store, latitude: latitude, longitude: longitude))
    }

    /// Writes every entry into `spatial_index`, in key order, and the
    /// list's tiles (``SpatialTiles``) from the same sorted pass.
    mutating func finish() throws {
        var insert = try SpatialIndex.inserter(list: list, db)
        var tiles = try SpatialTiles.Writer(list: list, db)
        try entries.forEachSorted {
            try insert.append($0)
            try tiles.append(band: $0.band, store: $0.store, latitude: $0.latitude, longitude: $0.longitude)
        }
        try insert.finish()
        try tiles.finish(db)
    }
}
