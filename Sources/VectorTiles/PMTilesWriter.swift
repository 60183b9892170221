import CarouselJSON
import Clustering
import Foundation

/// A PMTiles v3 file (github.com/protomaps/PMTiles, spec/v3): one file of
/// tiles for static hosting behind a CDN, read by range requests. Tiles
/// are stored in tile-id order (zoom, then the Hilbert curve within the
/// zoom: "clustered"), gzipped, with gzipped directories: a root that fits
/// the first 16 KiB, and leaf directories when the tiles are too many.
///
/// The tile data goes to a side file as tiles come; ``finish(_:)`` writes
/// the header, directories and metadata to the file and appends the data,
/// then removes the side file. Memory holds one 20-byte entry per tile.
public struct PMTilesWriter: TileArchiveWriter {
    private let path: String
    private let dataPath: String
    private let data: FileHandle
    private var entries: [Entry] = []
    private var dataLength: UInt64 = 0

    struct Entry {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// Starts the file at `path`, which must not exist yet; the tile data
    /// is gathered beside it in `path.data` until ``finish(_:)``.
    public init(path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: path])
        }
        self.path = path
        dataPath = path + ".data"
        guard FileManager.default.createFile(atPath: dataPath, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: dataPath])
        }
        data = try FileHandle(forWritingTo: URL(fileURLWithPath: dataPath))
    }

    /// The spec's order: by tile id, so that a zoom's tiles come along the
    /// Hilbert curve and neighbours are near in the file.
    public func order(_ tiles: [TileAddress]) -> [TileAddress] {
        tiles.sorted { Self.tileID($0) < Self.tileID($1) }
    }

    public mutating func add(_ tile: TileAddress, gzipped: [UInt8]) throws {
        let id = Self.tileID(tile)
        precondition(entries.last.map { $0.tileID < id } ?? true, "tiles must come in tile-id order")
        try data.write(contentsOf: gzipped)
        entries.append(Entry(tileID: id, offset: dataLength, length: UInt32(gzipped.count), runLength: 1))
        dataLength += UInt64(gzipped.count)
    }

    public mutating func finish(_ metadata: TileArchiveMetadata) throws {
        try data.close()
        defer { try? FileManager.default.removeItem(atPath: dataPath) }
        let (root, leaves) = Self.directories(entries)
        let center = metadata.center
        var json = "{\"name\":\(StoreJSON.quoted(metadata.name)),\"format\":\"pbf\",\"type\":\"overlay\",\"vector_layers\":\(metadata.vectorLayers)"
        if let attribution = metadata.attribution { json += ",\"attribution\":\(StoreJSON.quoted(attribution))" }
        json += "}"
        let metadataBytes = Gzip.compress(Array(json.utf8))

        var header = HeaderWriter()
        let rootOffset: UInt64 = 127
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataBytes.count)
        let dataOffset = leavesOffset + UInt64(leaves.count)
        header.bytes += Array("PMTiles".utf8) + [3]
        for value in [
            rootOffset, UInt64(root.count), metadataOffset, UInt64(metadataBytes.count), leavesOffset, UInt64(leaves.count),
            dataOffset, dataLength, UInt64(entries.count), UInt64(entries.count), UInt64(entries.count),
        ] { header.uint64(value) }
        // clustered, internal compression (2 = gzip), tile compression
        // (gzip), tile type (1 = MVT), min and max zoom.
        header.bytes += [1, 2, 2, 1, UInt8(metadata.zooms.lowerBound), UInt8(metadata.zooms.upperBound)]
        for degrees in [metadata.bounds.west, metadata.bounds.south, metadata.bounds.east, metadata.bounds.north] {
            header.e7(degrees)
        }
        header.bytes.append(UInt8(center.zoom))
        header.e7(center.longitude)
        header.e7(center.latitude)
        precondition(header.bytes.count == 127)

        guard FileManager.default.createFile(atPath: path, contents: Data(header.bytes + root + metadataBytes + leaves)) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        // The tile data appended a megabyte at a time: memory stays flat
        // whatever the archive's size.
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? output.close() }
        try output.seekToEnd()
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: dataPath))
        defer { try? input.close() }
        while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
            try output.write(contentsOf: chunk)
        }
        try output.synchronize()
    }

    /// The root directory and the leaf directories, gzipped: the root
    /// alone when it fits the spec's first 16 KiB with the header; else
    /// leaves of `size` entries (4,096, then larger until the root of
    /// their first ids fits), as the reference writer does.
    static func directories(_ entries: [Entry]) -> (root: [UInt8], leaves: [UInt8]) {
        let limit = 16_384 - 127
        let whole = Gzip.compress(serialized(entries))
        if whole.count <= limit { return (whole, []) }
        var size = 4_096
        while true {
            var leaves: [UInt8] = []
            var rootEntries: [Entry] = []
            var start = 0
            while start < entries.count {
                let leaf = Gzip.compress(serialized(Array(entries[start..<min(start + size, entries.count)])))
                // A root entry with run length 0 points at a leaf directory.
                rootEntries.append(Entry(tileID: entries[start].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += size
            }
            let root = Gzip.compress(serialized(rootEntries))
            if root.count <= limit { return (root, leaves) }
            size *= 2
        }
    }

    /// A directory's bytes (spec v3 §4): the count, then the ids as deltas,
    /// the run lengths, the lengths, and the offsets (0 for "right after
    /// the previous tile", else offset + 1), each a varint.
    static func serialized(_ entries: [Entry]) -> [UInt8] {
        var writer = ProtobufWriter()
        writer.rawVarint(UInt64(entries.count))
        var last: UInt64 = 0
        for entry in entries {
            writer.rawVarint(entry.tileID - last)
            last = entry.tileID
        }
        for entry in entries { writer.rawVarint(UInt64(entry.runLength)) }
        for entry in entries { writer.rawVarint(UInt64(entry.length)) }
        for (i, entry) in entries.enumerated() {
            let follows = i > 0 && entry.offset == entries[i - 1].offset + UInt64(entries[i - 1].length)
            writer.rawVarint(follows ? 0 : entry.offset + 1)
        }
        return writer.bytes
    }

    /// The tile id of `tile` (spec v3 §3): the count of tiles of every
    /// lower zoom, (4^z − 1) / 3, plus the tile's index on the zoom's
    /// Hilbert curve.
    static func tileID(_ tile: TileAddress) -> UInt64 {
        let below = ((UInt64(1) << (2 * UInt64(tile.z))) - 1) / 3
        var x = UInt64(tile.x), y = UInt64(tile.y), d: UInt64 = 0
        var s = (UInt64(1) << UInt64(tile.z)) / 2
        while s > 0 {
            let rx: UInt64 = x & s > 0 ? 1 : 0
            let ry: UInt64 = y & s > 0 ? 1 : 0
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so the curve continues (Hilbert's
            // xy-to-d, as Wikipedia and the PMTiles reference give it).
            if ry == 0 {
                if rx == 1 {
                    x = s &- 1 &- x
                    y = s &- 1 &- y
                }
                swap(&x, &y)
            }
            s /= 2
        }
        return below + d
    }

    /// Little-endian fields of the 127-byte header.
    struct HeaderWriter {
        var bytes: [UInt8] = []
        mutating func uint64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes += $0 } }
        /// Degrees × 10⁷ as a signed 32-bit integer.
        mutating func e7(_ degrees: Double) {
            withUnsafeBytes(of: Int32((degrees * 10_000_000).rounded()).littleEndian) { bytes += $0 }
        }
    }
}
