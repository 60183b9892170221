/// Flat arrays to bytes and back, for storing a hierarchy: each array's
/// elements as they lie in memory (little-endian on every platform Swift
/// runs this package on), with no alignment required when reading.
package struct ClusterBytes {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func append<T: BitwiseCopyable>(_ values: [T]) {
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ value: UInt32) {
        append([value])
    }

    /// Reads arrays back in the order they were appended.
    package struct Reader: ClusterByteSource {
        private let bytes: UnsafeRawBufferPointer
        private var offset = 0

        package init(_ bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
        }

        package mutating func read<T: BitwiseCopyable>(_: T.Type, count: Int) throws(ClusterError) -> [T] {
            let size = count * MemoryLayout<T>.stride
            guard count >= 0, offset + size <= bytes.count else {
                throw .corruptData("\(bytes.count) bytes end before \(count) values at \(offset)")
            }
            let values = [T](unsafeUninitializedCapacity: count) { buffer, initialized in
                if size > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: bytes.baseAddress! + offset, byteCount: size)
                }
                initialized = count
            }
            offset += size
            return values
        }

        package var isAtEnd: Bool { offset == bytes.count }
    }
}

/// Where stored arrays are read from, in order: bytes in memory, or a
/// stored blob read piecewise straight into the arrays.
package protocol ClusterByteSource {
    mutating func read<T: BitwiseCopyable>(_: T.Type, count: Int) throws(ClusterError) -> [T]
    var isAtEnd: Bool { get }
}

extension ClusterByteSource {
    package mutating func read(_: UInt32.Type) throws(ClusterError) -> UInt32 {
        try read(UInt32.self, count: 1)[0]
    }
}

extension ClusterLevel {
    /// 'CLV1': marks a stored level of this layout.
    package static let magic: UInt32 = 0x434C_5631

    /// Byte offsets of a stored level's arrays, for reading parts of it:
    /// a 16-byte header, then tree ids, tree coordinates, x, y, ids,
    /// parents, counts, expansion zooms.
    package struct Layout {
        package let count: Int
        package var treeIDs: Int { 16 }
        package var treeCoords: Int { 16 + 4 * count }
        package var x: Int { 16 + 12 * count }
        package var y: Int { 16 + 20 * count }
        package var id: Int { 16 + 28 * count }
        package var parent: Int { 16 + 36 * count }
        package var markerCount: Int { 16 + 44 * count }
        package var expansionZoom: Int { 16 + 48 * count }

        package init(count: Int) {
            self.count = count
        }
    }

    /// The level without its next indices (stored apart: only a selection
    /// reads them): tree, positions, ids, counts, parents, expansion zooms.
    package func bytes() -> [UInt8] {
        var out = ClusterBytes()
        out.append(Self.magic)
        out.append(UInt32(markerCount))
        out.append(UInt32(tree.nodeSize))
        out.append(UInt32(expansionZooms.isEmpty ? 0 : 1))
        out.append(tree.ids)
        out.append(tree.coords)
        out.append(x)
        out.append(y)
        out.append(id.map { Int64($0) })
        out.append(parent.map { Int64($0) })
        out.append(count)
        out.append(expansionZooms)
        return out.bytes
    }

    /// A level read back from ``bytes()`` (with no next indices).
    package init(bytes: UnsafeRawBufferPointer) throws(ClusterError) {
        var reader = ClusterBytes.Reader(bytes)
        try self.init(reading: &reader)
    }

    /// A level read back from ``bytes()`` as `source` yields them.
    package init<Source: ClusterByteSource>(reading reader: inout Source) throws(ClusterError) {
        guard try reader.read(UInt32.self) == Self.magic else { throw .corruptData("not a stored level") }
        let n = Int(try reader.read(UInt32.self))
        let nodeSize = Int(try reader.read(UInt32.self))
        let hasExpansion = try reader.read(UInt32.self) == 1
        tree = KDTree(
            nodeSize: nodeSize, ids: try reader.read(UInt32.self, count: n), coords: try reader.read(Float.self, count: 2 * n))
        x = try reader.read(Double.self, count: n)
        y = try reader.read(Double.self, count: n)
        // Stored as Int64; read straight into Int where that is the same.
        if MemoryLayout<Int>.size == 8 {
            id = try reader.read(Int.self, count: n)
            parent = try reader.read(Int.self, count: n)
        } else {
            id = try reader.read(Int64.self, count: n).map { Int($0) }
            parent = try reader.read(Int64.self, count: n).map { Int($0) }
        }
        count = try reader.read(UInt32.self, count: n)
        expansionZooms = hasExpansion ? try reader.read(UInt8.self, count: n) : []
        next = []
        guard reader.isAtEnd else { throw .corruptData("a stored level has trailing bytes") }
    }
}

extension ClusterIndex {
    /// The index with every cluster's expansion zoom computed ahead, one
    /// children query per cluster id (a cluster carried down several zooms
    /// keeps its id), so that a stored level answers without reading the
    /// level its clusters were made in.
    package func withExpansionZooms() throws(ClusterError) -> ClusterIndex {
        var known: [Int: UInt8] = [:]
        var levels = self.levels
        for l in levels.indices {
            var zooms = [UInt8](repeating: 0, count: levels[l].markerCount)
            for i in zooms.indices where levels[l].count[i] > 1 {
                let id = levels[l].id[i]
                if let zoom = known[id] {
                    zooms[i] = zoom
                } else {
                    let zoom = UInt8(try expansionZoom(of: id))
                    known[id] = zoom
                    zooms[i] = zoom
                }
            }
            levels[l].expansionZooms = zooms
        }
        return ClusterIndex(options: options, pointCount: pointCount, levels: levels, unclusterZooms: unclusterZooms)
    }
}

extension ClusterIndex {
    /// 'CIX1': marks a whole stored index of this layout.
    package static let magic: UInt32 = 0x4349_5831

    /// The whole index as one run of bytes, for an engine that stores it
    /// whole (PostgreSQL, one `bytea`): the point count, then each level
    /// (``ClusterLevel/bytes()`` and its next indices), then the points'
    /// uncluster zooms, each array after its length. The options are not
    /// in it: the store keeps them beside it.
    package func bytes() -> [UInt8] {
        var out = ClusterBytes()
        out.append(Self.magic)
        out.append([UInt64(pointCount), UInt64(levels.count)])
        for level in levels {
            let bytes = level.bytes()
            out.append([UInt64(bytes.count)])
            out.append(bytes)
            out.append([UInt64(level.next.count)])
            out.append(level.next)
        }
        out.append([UInt64(unclusterZooms.count)])
        out.append(unclusterZooms)
        return out.bytes
    }

    /// An index read back from ``bytes()``, built with `options`.
    package init(bytes: UnsafeRawBufferPointer, options: ClusterOptions) throws(ClusterError) {
        var reader = ClusterBytes.Reader(bytes)
        guard try reader.read(UInt32.self) == Self.magic else { throw .corruptData("not a stored cluster index") }
        func length(_ reader: inout ClusterBytes.Reader) throws(ClusterError) -> Int {
            let value = try reader.read(UInt64.self, count: 1)[0]
            guard value <= UInt64(bytes.count) else { throw .corruptData("a stored length of \(value) is past the end") }
            return Int(value)
        }
        let pointCount = try length(&reader)
        let levelCount = try length(&reader)
        var levels: [ClusterLevel] = []
        for _ in 0..<levelCount {
            let levelBytes = try reader.read(UInt8.self, count: try length(&reader))
            let decoded = levelBytes.withUnsafeBytes { raw in Result { () throws(ClusterError) in try ClusterLevel(bytes: raw) } }
            var level = try decoded.get()
            level.next = try reader.read(UInt32.self, count: try length(&reader))
            levels.append(level)
        }
        let unclusterZooms = try reader.read(UInt8.self, count: try length(&reader))
        guard reader.isAtEnd else { throw .corruptData("a stored cluster index has trailing bytes") }
        self.init(options: options, pointCount: pointCount, levels: levels, unclusterZooms: unclusterZooms)
    }
}
