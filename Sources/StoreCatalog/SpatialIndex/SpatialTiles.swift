import Foundation
import GRDB

/// Tiles of up to ``capacity`` memberships of one list, each boxed by its
/// stores' unit vectors, in a packed tree per list (`tile_nodes` and
/// `tile_trees`, Migrations/0010_tile_trees.sql), searched best-first by
/// ``NearestTileSearch``.
///
/// Why tiles, measured on the 234,908 GeoNames places (the `sqlite3
/// .import` of the file takes ~0.46 s on the shared machine):
/// - one tree entry per store (list + x, y, z) cost 3.3 s of CPU to fill an
///   R*Tree in key order (9.1 s wall with the other builds): seven times
///   the whole import, so out of the import budget (≤ 1.5× `.import`);
/// - one entry per run of a latitude band (the leaf read back from
///   `spatial_index` by one range seek) made 135,040 entries at ½° of
///   longitude, 52,721 at 8°: the bands are 1.7 km tall, so sparse places
///   make runs of one or two stores;
/// - 1° × 1° cells cut into tiles of 64 stores (``Writer``) make ~12,000
///   tiles here (~156,000 at 10⁷ stores), and packing the stores into the
///   tile itself makes a tile one read instead of one seek per band it
///   spans.
///
/// Why a tree of our own rather than SQLite's R*Tree (0007 to 0009): the
/// tiles are only ever written a whole list at a time, so a tree packed
/// once (``Writer``) needs none of an R*Tree's insertion work (118 ms of
/// the import, against 29 ms for the same rows in a plain table), and a
/// search in Swift measures 32 boxes a node read where SQLite's R*Tree
/// called back into Swift per box (70 % of a search's time).
///
/// The bands alone (``NearestSearch``, before the tiles) walk ring after
/// ring of bands: their cost grows with the distance to the k-th store
/// (p99 41.6 ms over HTTP for points drawn uniformly over the globe).
package enum SpatialTiles {
    /// The most memberships in one tile: its stores are all measured when
    /// it is read, so a tile is about as costly to read as the seek that
    /// finds it (64 haversines, ~1.5 µs) and the tree stays small.
    static let capacity = 64

    /// Latitude bands (of ``SpatialIndex``) per tile row: 1°.
    static let bandsPerRow: Int64 = 64

    /// A member's packed size: key, latitude, longitude.
    static let memberSize = 24

    /// The unit vector of a place: x = cos φ cos λ, y = cos φ sin λ, z = sin φ
    /// (its position on the unit sphere). The import, the migration (through
    /// the `carousel_unit_*` SQL functions) and the search compute it here.
    static func unitVector(latitude: Double, longitude: Double) -> (x: Double, y: Double, z: Double) {
        let phi = latitude * .pi / 180, lambda = longitude * .pi / 180
        return (cos(phi) * cos(lambda), cos(phi) * sin(lambda), sin(phi))
    }

    /// The tile column of a longitude: its whole degree east of -180 (180
    /// itself joins the last column), as the migration computes it.
    static func column(longitude: Double) -> Int {
        min(359, Int(longitude + 180))
    }

    /// Appends one member to a tile's packed bytes.
    static func pack(store: Int64, latitude: Double, longitude: Double, into bytes: inout [UInt8]) {
        withUnsafeBytes(of: store.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: latitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: longitude.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Calls `visit` with each member of a tile's packed bytes; a trailing
    /// partial member (never written) is ignored.
    static func forEachMember(
        _ bytes: UnsafeRawBufferPointer, _ visit: (_ store: Int64, _ latitude: Double, _ longitude: Double) -> Void
    ) {
        var offset = 0
        while offset + memberSize <= bytes.count {
            let store = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
            let latitude = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
            let longitude = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)))
            visit(store, latitude, longitude)
            offset += memberSize
        }
    }

    /// Deletes `list`'s tiles and the tree above them: one range of keys.
    static func delete(list: Int64, _ db: Database) throws {
        let range = try RawStatement.cached("SELECT first, last FROM tile_trees WHERE list = ?", in: db)
        defer { range.reset() }
        range.bind(list, at: 1)
        guard try range.step() else { return }
        let (first, last) = (range.int64(0), range.int64(1))
        range.reset()
        try db.execute(sql: "DELETE FROM tile_nodes WHERE key BETWEEN ? AND ?", arguments: [first, last])
        try db.execute(sql: "DELETE FROM tile_trees WHERE list = ?", arguments: [list])
    }

    /// Writes `list`'s tiles again from its `spatial_index` rows: after
    /// stores of the list moved (an import that updated their coordinates)
    /// or left it. One pass over the index in its key order.
    static func rebuild(list: Int64, _ db: Database) throws {
        try delete(list: list, db)
        var writer = try Writer(list: list, db)
        let statement = try RawStatement.cached(
            "SELECT band, longitude, latitude, store FROM spatial_index WHERE list = ? ORDER BY band, longitude, latitude, store",
            in: db)
        defer { statement.reset() }
        statement.bind(list, at: 1)
        while try statement.step() {
            try writer.append(
                band: statement.int64(0), store: statement.int64(3),
                latitude: statement.double(2), longitude: statement.double(1))
        }
        try writer.finish(db)
    }

    /// Every list's tiles written again: migration 0010, which replaced
    /// 0007's R*Tree with these trees.
    @Sendable static func rebuildAll(_ db: Database) throws {
        for list in try Int64.fetchAll(db, sql: "SELECT key FROM lists ORDER BY key") {
            try rebuild(list: list, db)
        }
    }

    /// Calls `visit` with every tile of every list, walking each list's
    /// tree from its root: the tile's list, its box (from its parent) and
    /// its packed members. Returns how many nodes the trees hold, tiles
    /// included. For checks, not for searches.
    @discardableResult
    package static func forEachTile(
        _ db: Database, _ visit: (_ list: Int64, _ box: Box, _ members: UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int {
        var reached = 0
        for row in try Row.fetchAll(db, sql: "SELECT list, root FROM tile_trees ORDER BY list") {
            let list: Int64 = row[0]
            var pending: [Int64] = [row[1]]
            while let key = pending.popLast() {
                let bytes = try Data.fetchOne(db, sql: "SELECT bytes FROM tile_nodes WHERE key = ?", arguments: [key]) ?? Data()
                reached += 1
                var tiles: [(Int64, Box)] = []
                bytes.withUnsafeBytes { node in
                    Node.forEachChild(node) { child, box in
                        if node.first == Node.tiles { tiles.append((child, box)) } else { pending.append(child) }
                    }
                }
                for (tile, box) in tiles {
                    let members = try Data.fetchOne(db, sql: "SELECT bytes FROM tile_nodes WHERE key = ?", arguments: [tile]) ?? Data()
                    reached += 1
                    try members.withUnsafeBytes { try visit(list, box, $0) }
                }
            }
        }
        return reached
    }

    /// The box of unit vectors of a tile's or a node's stores.
    package struct Box: Equatable {
        package var low = SIMD3<Double>(repeating: .infinity)
        package var high = SIMD3<Double>(repeating: -.infinity)

        mutating func include(_ point: SIMD3<Double>) {
            low = pointwiseMin(low, point)
            high = pointwiseMax(high, point)
        }

        mutating func include(_ box: Box) {
            low = pointwiseMin(low, box.low)
            high = pointwiseMax(high, box.high)
        }
    }

    /// An inner node's bytes: one byte saying what its children are
    /// (``Node/tiles`` or ``Node/nodes``), then for each child its key
    /// (Int64) and box (x, y, z low then high, six Doubles), little-endian:
    /// 56 bytes a child.
    enum Node {
        static let tiles: UInt8 = 0
        static let nodes: UInt8 = 1
        static let headerSize = 1
        static let entrySize = 56

        /// How many children a node holds. Measured on the 234,908 GeoNames
        /// places (11,837 tiles), nearest 10 from points uniform over the
        /// globe, medians in one run: 16 children 33 µs, 32 children 31 µs,
        /// 64 children 37 µs. A node read costs about as much as measuring
        /// a few dozen boxes.
        static let fanOut = 32

        static func append(key: Int64, box: Box, to bytes: inout [UInt8]) {
            withUnsafeBytes(of: key.littleEndian) { bytes.append(contentsOf: $0) }
            for value in [box.low.x, box.low.y, box.low.z, box.high.x, box.high.y, box.high.z] {
                withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }

        /// Calls `visit` with each child's key and box.
        @inline(__always)
        static func forEachChild(_ bytes: UnsafeRawBufferPointer, _ visit: (_ key: Int64, _ box: Box) -> Void) {
            var offset = headerSize
            while offset + entrySize <= bytes.count {
                func double(_ index: Int) -> Double {
                    Double(
                        bitPattern: UInt64(
                            littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 8 + 8 * index, as: UInt64.self)))
                }
                let key = Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
                visit(key, Box(low: SIMD3(double(0), double(1), double(2)), high: SIMD3(double(3), double(4), double(5))))
                offset += entrySize
            }
        }
    }

    /// Builds one list's tiles from its memberships given in the spatial
    /// index's key order (by band, then longitude), in memory bounded by
    /// ``openBudget`` open members plus 64 bytes per tile for the tree,
    /// then the tree above them.
    ///
    /// Each 1° cell's memberships gather in a chunk of up to
    /// ``chunkCapacity``, cut into tiles by sort-tile-recursive (Leutenegger,
    /// Lopez & Edgington, "STR: A simple and efficient algorithm for R-tree
    /// packing", ICDE 1997): sorted by longitude into vertical slices, each
    /// slice sorted by latitude into tiles of ``capacity``, as many slices
    /// as make the tiles about as wide as they are tall. Cut in arrival
    /// order instead, a tile was a run of one band (1.7 km tall) along the
    /// longitude, as narrow as the stores are dense: at 10⁷ synthetic
    /// stores a city's tiles were strips tens of meters wide, and a
    /// nearest-10 circle crossed several of them (87 µs against 43 µs at
    /// 234,908, where the same strips were about square). Measured
    /// beside ``chunkCapacity``.
    ///
    /// The tree is packed bottom-up, the way Hilbert R-trees are (Kamel &
    /// Faloutsos, "Hilbert R-tree: An improved R-tree using fractals",
    /// VLDB 1994; flatbush does the same): the tiles sorted along a Hilbert
    /// curve over their centres' latitude and longitude, then every
    /// ``Node/fanOut`` consecutive entries of a level make a node of the
    /// next, up to one root. Neighbours on the curve are neighbours on the
    /// map, so each node's box stays small. Nothing is ever inserted into
    /// a built tree: any change of a list builds its tree again.
    ///
    /// The list's nodes take consecutive keys from the largest key in use,
    /// so one writer at a time (a write transaction is one).
    struct Writer {
        /// The most memberships of one cell cut into tiles together (256
        /// tiles). Nearest 10 within ±0.01° of random stores, medians of two
        /// runs at 234,908 and 10⁷ synthetic stores (`SyntheticStoreList`),
        /// 2-core Intel VM: tiles cut in arrival order 43.7 and 89.8 µs
        /// (2.05×); chunks of 1,024 38.4 and 83.7 (2.18×); 4,096 38.6 and
        /// 78.1 (2.02×); 16,384 38.2 and 71.3 (1.87×); 65,536 38.4 and 71.4.
        /// Points uniform over the globe unchanged (31–33 and 42–43 µs).
        static let chunkCapacity = 16_384

        /// The most members held open at once, all columns together: past
        /// it the largest chunk is cut early. 1.5 MiB, however many of a
        /// row's 360 columns hold stores (a 10⁷-store import peaked 3.3 MiB
        /// higher than with tiles cut in arrival order).
        static let openBudget = 65_536

        private let list: Int64
        private let budget: Int
        private let insert: RawStatement
        private let first: Int64
        private var next: Int64
        private var row: Int64 = -1
        /// The open chunk of each column of the current row, by column.
        private var open = [[Member]](repeating: [], count: 360)
        /// Members in ``open``, all columns together.
        private var openCount = 0
        /// The most members ``open`` held between two appends: what the
        /// budget bounds.
        private(set) var mostOpen = 0
        /// Every written tile's box and place on the curve, in the order
        /// written: tile `i` has key `first + i` (the tiles take their keys
        /// before any inner node). 56 bytes a tile, in blocks of
        /// ``blockSize`` so that growing never copies: the ~162,000 tiles of
        /// 10⁷ stores take 9 MB, where one array doubling its capacity held
        /// 25 MB at once (a 10⁷-store import peaked at 69.7 MiB).
        private var written: [[Written]] = []
        private var tileCount = 0
        private static let blockSize = 4_096
        /// One tile's packed bytes, reused from tile to tile.
        private var bytes: [UInt8] = []

        private struct Written {
            var order: UInt32
            // The box as six Doubles: SIMD3's padding would make it 64 bytes.
            var low: (Double, Double, Double)
            var high: (Double, Double, Double)

            var box: Box { Box(low: SIMD3(low.0, low.1, low.2), high: SIMD3(high.0, high.1, high.2)) }
        }

        private struct Member {
            var store: Int64
            var latitude: Double
            var longitude: Double
        }

        init(list: Int64, openBudget: Int = Self.openBudget, _ db: Database) throws {
            self.list = list
            budget = openBudget
            insert = try RawStatement.cached("INSERT INTO tile_nodes (key, bytes) VALUES (?, ?)", in: db)
            first = (try Int64.fetchOne(db, sql: "SELECT max(key) FROM tile_nodes") ?? 0) + 1
            next = first
            bytes.reserveCapacity(SpatialTiles.capacity * SpatialTiles.memberSize)
        }

        /// Adds one membership; `band` is its ``SpatialIndex/band(latitude:)``,
        /// never smaller than the previous one's.
        mutating func append(band: Int64, store: Int64, latitude: Double, longitude: Double) throws {
            let row = band / SpatialTiles.bandsPerRow
            if row != self.row {
                try flushAll()
                self.row = row
            }
            let column = SpatialTiles.column(longitude: longitude)
            open[column].append(Member(store: store, latitude: latitude, longitude: longitude))
            openCount += 1
            if open[column].count == Self.chunkCapacity { try cut(column: column) }
            if openCount > budget {
                // The largest, ties by the westernmost: the same tiles for
                // the same memberships.
                try cut(column: open.indices.max { (open[$0].count, $1) < (open[$1].count, $0) }!)
            }
            mostOpen = max(mostOpen, openCount)
        }

        /// Writes the tiles still open and the tree above every tile; call
        /// once every member is appended.
        mutating func finish(_ db: Database) throws {
            try flushAll()
            guard tileCount > 0 else { return }
            // Along the curve, ties by key: the same tree for the same tiles.
            var byCurve: [(order: UInt32, tile: Int32)] = []
            byCurve.reserveCapacity(tileCount)
            for tile in 0..<tileCount {
                byCurve.append((written[tile / Self.blockSize][tile % Self.blockSize].order, Int32(tile)))
            }
            byCurve.sort { ($0.order, $0.tile) < ($1.order, $1.tile) }
            // At least one inner node, even above a single tile: a search
            // starts at a node.
            var level = try pack(
                byCurve.lazy.map { [first, written] in
                    let tile = Int($0.tile)
                    return (key: first + Int64(tile), box: written[tile / Self.blockSize][tile % Self.blockSize].box)
                }, children: Node.tiles)
            written = []
            byCurve = []
            while level.count > 1 { level = try pack(level, children: Node.nodes) }
            let root = level[0]
            try db.execute(
                sql: """
                    INSERT INTO tile_trees (list, root, first, last, x_min, x_max, y_min, y_max, z_min, z_max)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    list, root.key, first, next - 1, root.box.low.x, root.box.high.x, root.box.low.y, root.box.high.y,
                    root.box.low.z, root.box.high.z,
                ])
        }

        /// Writes one level of the tree above `level` (whose entries are
        /// tiles or nodes, as `children` says): a node for each run of
        /// ``Node/fanOut`` of them. Returns the new nodes' keys and boxes.
        private mutating func pack<Level: RandomAccessCollection<(key: Int64, box: Box)>>(
            _ level: Level, children: UInt8
        ) throws -> [(key: Int64, box: Box)] where Level.Index == Int {
            var parents: [(key: Int64, box: Box)] = []
            parents.reserveCapacity((level.count + Node.fanOut - 1) / Node.fanOut)
            var bytes: [UInt8] = []
            bytes.reserveCapacity(Node.headerSize + Node.fanOut * Node.entrySize)
            var start = level.startIndex
            while start < level.endIndex {
                let end = min(start + Node.fanOut, level.endIndex)
                bytes.removeAll(keepingCapacity: true)
                bytes.append(children)
                var box = Box()
                for child in level[start..<end] {
                    Node.append(key: child.key, box: child.box, to: &bytes)
                    box.include(child.box)
                }
                parents.append((try write(bytes), box))
                start = end
            }
            return parents
        }

        private mutating func flushAll() throws {
            for column in open.indices where !open[column].isEmpty { try cut(column: column) }
        }

        /// Cuts the open chunk of `column` into tiles and writes them; the
        /// column's chunk starts again empty, its memory freed.
        private mutating func cut(column: Int) throws {
            openCount -= open[column].count
            var chunk: [Member] = []
            swap(&chunk, &open[column])
            try write(chunk: consume chunk)
        }

        /// Cuts one cell's chunk into tiles (sort-tile-recursive, above) and
        /// writes them. Every tile is full but the chunk's last.
        private mutating func write(chunk: consuming [Member]) throws {
            var members = consume chunk
            let capacity = SpatialTiles.capacity
            let tiles = (members.count + capacity - 1) / capacity
            // As many slices as make a tile about square: a chunk W wide and
            // H tall cut into S slices of T/S tiles has tiles W/S wide and
            // H·S/T tall, equal at S = √(T·W/H). Widths are measured on the
            // ground (× cos φ); a degenerate side takes the extreme count.
            var south = Double.infinity, north = -Double.infinity
            var west = Double.infinity, east = -Double.infinity
            for member in members {
                south = min(south, member.latitude)
                north = max(north, member.latitude)
                west = min(west, member.longitude)
                east = max(east, member.longitude)
            }
            let height = north - south
            let width = (east - west) * cos((south + north) / 2 * .pi / 180)
            let slices: Int
            if height <= 0 {
                slices = tiles
            } else {
                let square = (Double(tiles) * width / height).squareRoot()
                slices = max(1, min(tiles, Int(square.rounded())))
            }
            // Whole tiles to a slice, so only the last tile can be short.
            let perSlice = (tiles + slices - 1) / slices * capacity
            // Ties by key: the same tiles for the same memberships.
            members.sort { ($0.longitude, $0.latitude, $0.store) < ($1.longitude, $1.latitude, $1.store) }
            var start = 0
            while start < members.count {
                let end = min(start + perSlice, members.count)
                members[start..<end].sort {
                    ($0.latitude, $0.longitude, $0.store) < ($1.latitude, $1.longitude, $1.store)
                }
                var tileStart = start
                while tileStart < end {
                    let tileEnd = min(tileStart + capacity, end)
                    try write(tile: members[tileStart..<tileEnd])
                    tileStart = tileEnd
                }
                start = end
            }
        }

        private mutating func write(tile members: ArraySlice<Member>) throws {
            var box = Box()
            bytes.removeAll(keepingCapacity: true)
            for member in members {
                SpatialTiles.pack(store: member.store, latitude: member.latitude, longitude: member.longitude, into: &bytes)
                let v = SpatialTiles.unitVector(latitude: member.latitude, longitude: member.longitude)
                box.include(SIMD3(v.x, v.y, v.z))
            }
            let centre = (box.low + box.high) / 2
            let order = Hilbert.order(of: centre)
            let key = try write(bytes)
            precondition(key == first + Int64(tileCount), "a tile's key follows the tiles before it")
            if tileCount % Self.blockSize == 0 {
                written.append([])
                written[written.count - 1].reserveCapacity(Self.blockSize)
            }
            written[written.count - 1].append(
                Written(order: order, low: (box.low.x, box.low.y, box.low.z), high: (box.high.x, box.high.y, box.high.z)))
            tileCount += 1
        }

        /// Inserts one node's bytes under the next key; returns the key.
        private mutating func write(_ bytes: [UInt8]) throws -> Int64 {
            insert.reset()
            insert.bind(next, at: 1)
            insert.bind(bytes: bytes, at: 2)
            try insert.step()
            insert.reset()
            next += 1
            return next - 1
        }
    }

    /// A place on a Hilbert curve over latitude and longitude.
    enum Hilbert {
        /// The cells per side of the curve's grid: 2¹⁶, a cell of 0.0055°.
        static let side: UInt32 = 1 << 16

        /// The curve's index of the cell holding the direction `point`
        /// (any length but zero).
        static func order(of point: SIMD3<Double>) -> UInt32 {
            let longitude = atan2(point.y, point.x)  // -π...π
            let latitude = atan2(point.z, (point.x * point.x + point.y * point.y).squareRoot())  // -π/2...π/2
            func cell(_ fraction: Double) -> UInt32 {
                UInt32(max(0, min(Double(side - 1), (fraction * Double(side)).rounded(.down))))
            }
            return index(x: cell((longitude + .pi) / (2 * .pi)), y: cell((latitude + .pi / 2) / .pi))
        }

        /// The classic conversion of a cell (x, y) to its distance along
        /// the curve, one quadrant per bit from the top.
        static func index(x: UInt32, y: UInt32) -> UInt32 {
            var (x, y) = (x, y)
            var d: UInt32 = 0
            var s = side / 2
            while s > 0 {
                let rx: UInt32 = (x & s) > 0 ? 1 : 0
                let ry: UInt32 = (y & s) > 0 ? 1 : 0
                d += s * s * ((3 * rx) ^ ry)
                // Rotate the quadrant so the curve stays continuous.
                if ry == 0 {
                    if rx == 1 {
                        x = side - 1 - x
                        y = side - 1 - y
                    }
                    swap(&x, &y)
                }
                s /= 2
            }
            return d
        }
    }
}
