import GRDB

/// Collects an import's spatial index entries and writes them in the
/// index's key order, in memory that does not grow with the file.
///
/// Entries arrive in file order, random for the index; inserting them so
/// would touch a random B-tree page per row. Up to ``memoryLimit`` entries
/// (8 MiB) are sorted in memory and inserted in key order, as before. Past
/// that — a list of millions of stores, whose entries alone would take
/// 32 bytes each, 305 MiB at 10⁷ — they go unsorted into a temporary table
/// and one `INSERT … SELECT … ORDER BY` sorts them with SQLite's external
/// merge sort, whose memory is bounded by its page cache and which spills
/// sorted runs to temporary files.
struct SpatialIndexWriter {
    /// The most entries held in memory (32 bytes each): 8 MiB. The 234,908
    /// GeoNames places stay under it, and keep the in-memory sort, the
    /// faster of the two below a few million rows.
    static let memoryLimit = 262_144

    private let list: Int64
    private let db: Database
    private let limit: Int
    private var entries: [SpatialIndex.Entry] = []
    /// The temporary table's writer, once the entries outgrew memory.
    private var spilled: BatchInsert<SpatialIndex.Entry>?
    /// Entries added so far: the list's imported stores.
    private(set) var count = 0

    init(list: Int64, limit: Int = memoryLimit, _ db: Database) {
        self.list = list
        self.db = db
        self.limit = limit
    }

    mutating func append(store: Int64, latitude: Double, longitude: Double) throws {
        count += 1
        let entry = SpatialIndex.Entry(store: store, latitude: latitude, longitude: longitude)
        if spilled != nil {
            try spilled!.append(entry)
            return
        }
        entries.append(entry)
        if entries.count > limit { try spill() }
    }

    /// Moves the entries held in memory to the temporary table, and sends
    /// every later one there.
    private mutating func spill() throws {
        try db.execute(sql: """
            CREATE TEMP TABLE import_spatial (band INTEGER, longitude REAL, latitude REAL, store INTEGER)
            """)
        var table = try BatchInsert<SpatialIndex.Entry>(
            db, into: "temp.import_spatial", columns: ["band", "longitude", "latitude", "store"]
        ) { entry, statement, first in
            statement.bind(entry.band, at: first)
            statement.bind(entry.longitude, at: first + 1)
            statement.bind(entry.latitude, at: first + 2)
            statement.bind(entry.store, at: first + 3)
        }
        for entry in entries { try table.append(entry) }
        entries = []
        spilled = table
    }

    /// Writes every entry into `spatial_index`, in key order.
    mutating func finish() throws {
        guard var table = spilled else {
            try SpatialIndex.insert(&entries, list: list, db)
            entries = []
            return
        }
        spilled = nil
        try table.finish()
        try db.execute(
            sql: """
                INSERT INTO spatial_index (band, longitude, latitude, store, list)
                SELECT band, longitude, latitude, store, ? FROM temp.import_spatial
                ORDER BY band, longitude, latitude, store
                """,
            arguments: [list])
        try db.execute(sql: "DROP TABLE temp.import_spatial")
    }
}
