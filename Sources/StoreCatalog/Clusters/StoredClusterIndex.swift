import Clustering
import GRDB
import Geo

/// A list's cluster hierarchy as stored in `cluster_parts`, read a part at
/// a time as queries need it: a clusters query reads the one level of its
/// zoom; a selection adds one array of next indices per zoom above it.
///
/// Lives for one read transaction (it holds its `Database`).
final class StoredClusterIndex: ClusterHierarchy {
    /// Part kinds of `cluster_parts`.
    enum Kind: Int64 {
        case level = 0
        case next = 1
        case unclusterZooms = 2
    }

    /// Layout of the stored bytes: a change makes old indexes rebuild.
    static let format = 1

    let options: ClusterOptions
    let pointCount: Int
    private let list: Int64
    private let db: Database
    private var levels: [Int: ClusterLevel] = [:]
    private var trees: [Int: KDTree] = [:]
    private var nexts: [Int: [UInt32]] = [:]
    private var unclusterZooms: [UInt8]?

    init(list: Int64, pointCount: Int, options: ClusterOptions, _ db: Database) {
        self.list = list
        self.pointCount = pointCount
        self.options = options
        self.db = db
    }

    func level(atZoom zoom: Int) throws -> ClusterLevel? {
        guard (options.minZoom...(options.maxZoom + 1)).contains(zoom) else { return nil }
        if let level = levels[zoom] { return level }
        let level = try blob(.level, zoom: zoom) { source throws(ClusterError) in try ClusterLevel(reading: &source) }
        levels[zoom] = level
        return level
    }

    /// Reads the level's KD-tree, then only the markers it finds: at a
    /// high zoom a level holds every store (11 MB for 234,908), its tree a
    /// quarter of that, a city box a few hundred markers.
    func markers(atZoom zoom: Int, in rectangles: [UnitRectangle]) throws -> [ClusterMarker] {
        guard (options.minZoom...(options.maxZoom + 1)).contains(zoom) else { return [] }
        return try blob(.level, zoom: zoom, wholly: false) { source throws(ClusterError) in
            let header = try source.read(UInt32.self, count: 4)
            guard header[0] == ClusterLevel.magic else { throw ClusterError.corruptData("not a stored level") }
            let layout = ClusterLevel.Layout(count: Int(header[1]))
            let tree: KDTree
            if let cached = trees[zoom] {
                tree = cached
            } else {
                tree = KDTree(
                    nodeSize: Int(header[2]), ids: try source.read(UInt32.self, count: layout.count),
                    coords: try source.read(Float.self, count: 2 * layout.count))
                trees[zoom] = tree
            }
            let hasExpansion = header[3] == 1
            var found: [Int] = []
            for rectangle in rectangles {
                tree.range(minX: rectangle.minX, minY: rectangle.minY, maxX: rectangle.maxX, maxY: rectangle.maxY) {
                    found.append(Int($0))
                }
            }
            return try found.map { i throws(ClusterError) -> ClusterMarker in
                let count = try source.value(UInt32.self, at: layout.markerCount + 4 * i)
                let id = Int(try source.value(Int64.self, at: layout.id + 8 * i))
                guard count > 1 else { return .point(id) }
                return .cluster(
                    Cluster(
                        id: id, count: Int(count),
                        x: try source.value(Double.self, at: layout.x + 8 * i),
                        y: try source.value(Double.self, at: layout.y + 8 * i),
                        expansionZoom: hasExpansion ? Int(try source.value(UInt8.self, at: layout.expansionZoom + i)) : nil))
            }
        }
    }

    func markerID(atZoom zoom: Int, index: Int) throws -> Int {
        if let level = levels[zoom] { return level.id[index] }
        return try blob(.level, zoom: zoom, wholly: false) { source throws(ClusterError) in
            let count = Int(try source.value(UInt32.self, at: 4))
            guard index < count else { throw ClusterError.corruptData("no marker \(index) at zoom \(zoom)") }
            return Int(try source.value(Int64.self, at: ClusterLevel.Layout(count: count).id + 8 * index))
        }
    }

    func nextIndex(ofMarker index: Int, atZoom zoom: Int) throws -> Int {
        if nexts[zoom] == nil {
            nexts[zoom] = try blob(.next, zoom: zoom) { source throws(ClusterError) in
                try source.read(UInt32.self, count: source.byteCount / 4)
            }
        }
        guard let next = nexts[zoom], next.indices.contains(index) else {
            throw ClusterError.corruptData("no next index for marker \(index) at zoom \(zoom)")
        }
        return Int(next[index])
    }

    func storedUnclusterZoom(ofPoint index: Int) throws -> Int {
        if unclusterZooms == nil {
            unclusterZooms = try blob(.unclusterZooms, zoom: -1) { source throws(ClusterError) in
                try source.read(UInt8.self, count: source.byteCount)
            }
        }
        guard let zooms = unclusterZooms, zooms.indices.contains(index) else {
            throw ClusterError.corruptData("no uncluster zoom for store \(index)")
        }
        return Int(zooms[index])
    }

    func projectedPoint(_ index: Int) throws -> (x: Double, y: Double) {
        let statement = try RawStatement.cached(
            """
            SELECT s.latitude, s.longitude FROM list_items AS i JOIN stores AS s ON s.key = i.store
            WHERE i.list = ? AND i.position = ?
            """, in: db)
        defer { statement.reset() }
        statement.bind(list, at: 1)
        statement.bind(Int64(index), at: 2)
        guard try statement.step() else { throw ClusterError.pointOutOfRange(index: index, count: pointCount) }
        return WebMercator.roundedUnitPoint(latitude: statement.double(0), longitude: statement.double(1))
    }

    /// Reads one part through ``StoredBlob``.
    private func blob<T>(
        _ kind: Kind, zoom: Int, wholly: Bool = true, _ decode: (inout StoredBlob) throws(ClusterError) -> T
    ) throws -> T {
        let statement = try RawStatement.cached(
            "SELECT rowid FROM cluster_parts WHERE list = ? AND kind = ? AND zoom = ?", in: db)
        let rowid: Int64
        do {
            defer { statement.reset() }
            statement.bind(list, at: 1)
            statement.bind(kind.rawValue, at: 2)
            statement.bind(Int64(zoom), at: 3)
            guard try statement.step() else { throw ClusterError.corruptData("part \(kind) of zoom \(zoom) is missing") }
            rowid = statement.int64(0)
        }
        var source = try StoredBlob(rowid: rowid, db)
        defer { source.close() }
        let value = try decode(&source)
        guard !wholly || source.isAtEnd else {
            throw ClusterError.corruptData("part \(kind) of zoom \(zoom) has trailing bytes")
        }
        return value
    }

    /// Stores `index` as `list`'s, replacing any former one.
    static func store(_ index: ClusterIndex, list: Int64, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM cluster_parts WHERE list = ?", arguments: [list])
        try db.execute(
            sql: "INSERT OR REPLACE INTO cluster_indexes (list, format, points, options) VALUES (?, ?, ?, ?)",
            arguments: [list, format, index.pointCount, describe(index.options)])
        let insert = try RawStatement.cached(
            "INSERT INTO cluster_parts (list, kind, zoom, bytes) VALUES (?, ?, ?, ?)", in: db)
        func write(_ kind: Kind, zoom: Int, _ bytes: [UInt8]) throws {
            defer { insert.reset() }
            insert.bind(list, at: 1)
            insert.bind(kind.rawValue, at: 2)
            insert.bind(Int64(zoom), at: 3)
            insert.bind(bytes: bytes, at: 4)
            try insert.step()
        }
        for (offset, level) in index.levels.enumerated() {
            let zoom = index.options.minZoom + offset
            try write(.level, zoom: zoom, level.bytes())
            if !level.next.isEmpty {
                var next = ClusterBytes()
                next.append(level.next)
                try write(.next, zoom: zoom, next.bytes)
            }
        }
        try write(.unclusterZooms, zoom: -1, index.unclusterZooms)
    }

    /// The options as stored beside an index, to tell whether it still fits.
    static func describe(_ options: ClusterOptions) -> String {
        options.storedDescription
    }
}
