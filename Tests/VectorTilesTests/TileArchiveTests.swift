import Clustering
import Foundation
import GRDB
import TestSupport
import Testing

@testable import VectorTiles

/// MBTiles and PMTiles files as their specifications lay them out, read
/// back by readers written here from the specifications (PMTiles v3's
/// header, varint directories and Hilbert tile ids; MBTiles' TMS rows).
@Suite struct TileArchiveTests {
    static let metadata = TileArchiveMetadata(
        name: "seoul", zooms: 0...14, bounds: (126.8, 37.4, 127.2, 37.7), vectorLayers: VectorTile.storesLayerJSON(zooms: 0...14))

    @Test func tileIDsAreThePMTilesReferences() {
        // zxy_to_tileid of PyPI's pmtiles 3 (the reference implementation).
        let reference: [(TileAddress, UInt64)] = [
            (.init(z: 0, x: 0, y: 0), 0), (.init(z: 1, x: 0, y: 0), 1), (.init(z: 1, x: 0, y: 1), 2), (.init(z: 1, x: 1, y: 1), 3),
            (.init(z: 1, x: 1, y: 0), 4), (.init(z: 2, x: 0, y: 0), 5), (.init(z: 2, x: 3, y: 3), 15), (.init(z: 3, x: 5, y: 2), 76),
            (.init(z: 12, x: 3456, y: 1234), 18_771_707), (.init(z: 14, x: 13973, y: 6348), 304_736_032),
            (.init(z: 20, x: 1_000_000, y: 500_000), 1_194_873_097_215),
        ]
        for (tile, id) in reference { #expect(PMTilesWriter.tileID(tile) == id, "\(tile)") }
    }

    /// Random tiles of zooms 0–12 in the writer's order, each a few
    /// hundred random bytes.
    static func tiles(_ count: Int, seed: UInt64) -> [(TileAddress, [UInt8])] {
        var random = SplitMix64(seed: seed)
        var addresses = Set<TileAddress>()
        while addresses.count < count {
            let z = Int(random.next() % 13)
            addresses.insert(TileAddress(z: z, x: Int(random.next() % UInt64(1 << z)), y: Int(random.next() % UInt64(1 << z))))
        }
        return addresses.sorted { PMTilesWriter.tileID($0) < PMTilesWriter.tileID($1) }.map { tile in
            (tile, (0..<(20 + Int(random.next() % 100))).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }
    }

    @Test(arguments: [1, 300, 12_000])
    func aPMTilesFileGivesBackEveryTile(count: Int) throws {
        let directory = try TemporaryDirectory("pmtiles")
        let path = directory.path("t.pmtiles").path
        let tiles = Self.tiles(count, seed: UInt64(count))
        var writer = try PMTilesWriter(path: path)
        for (tile, bytes) in tiles { try writer.add(tile, gzipped: bytes) }
        try writer.finish(Self.metadata)
        #expect(!FileManager.default.fileExists(atPath: path + ".data"))

        let file = try PMTilesReader(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(file.header.clustered && file.header.tileType == 1 && file.header.tileCompression == 2)
        #expect(file.header.zooms == (0, 14) && file.header.tiles == UInt64(count))
        #expect(file.header.rootLength <= 16_384 - 127)
        // 12,000 entries do not fit the root: leaf directories hold them.
        #expect(file.header.leavesLength > 0 || count < 10_000)
        for (tile, bytes) in tiles { #expect(try file.tile(PMTilesWriter.tileID(tile)) == bytes, "\(tile)") }
        // A tile that is not there is not found.
        #expect(try file.tile(PMTilesWriter.tileID(TileAddress(z: 13, x: 0, y: 0))) == nil)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(file.metadata)) as? [String: Any])
        #expect(json["name"] as? String == "seoul")
        #expect((json["vector_layers"] as? [[String: Any]])?.first?["id"] as? String == "stores")
    }

    @Test func anMBTilesFileHoldsTMSRowsAndTheMetadata() throws {
        let directory = try TemporaryDirectory("mbtiles")
        let path = directory.path("t.mbtiles").path
        let tiles = Self.tiles(2_500, seed: 7)
        var writer = try MBTilesWriter(path: path)
        let byAddress = Dictionary(uniqueKeysWithValues: tiles.map { ($0.0, $0.1) })
        for tile in writer.order(tiles.map(\.0)) { try writer.add(tile, gzipped: byAddress[tile]!) }
        try writer.finish(Self.metadata)
        let database = try DatabaseQueue(path: path)
        try database.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles") == tiles.count)
            for (tile, bytes) in tiles.prefix(200) {
                let row = (1 << tile.z) - 1 - tile.y
                let stored = try Data.fetchOne(
                    db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                    arguments: [tile.z, tile.x, row])
                #expect(stored.map(Array.init) == bytes, "\(tile)")
            }
            let metadata = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, value FROM metadata").map { ($0[0] as String, $0[1] as String) })
            #expect(metadata["format"] == "pbf" && metadata["minzoom"] == "0" && metadata["maxzoom"] == "14")
            #expect(metadata["bounds"] == "126.8,37.4,127.2,37.7")
            #expect(metadata["json"]?.hasPrefix("{\"vector_layers\":[{\"id\":\"stores\"") == true)
        }
    }

    @Test func aWriterRefusesAnExistingFile() throws {
        let directory = try TemporaryDirectory("archive")
        let path = directory.path("there").path
        FileManager.default.createFile(atPath: path, contents: Data([1]))
        #expect(throws: (any Error).self) { try MBTilesWriter(path: path) }
        #expect(throws: (any Error).self) { try PMTilesWriter(path: path) }
    }

    @Test func gzipRoundTripsAndRefusesOtherBytes() throws {
        let bytes = Array(String(repeating: "stores ", count: 500).utf8)
        let zipped = Gzip.compress(bytes)
        #expect(zipped.count < bytes.count / 10 && zipped.prefix(2) == [0x1F, 0x8B])
        #expect(try Gzip.decompress(zipped) == bytes)
        #expect(throws: (any Error).self) { try Gzip.decompress([1, 2, 3, 4]) }
        #expect(throws: (any Error).self) { try Gzip.decompress(zipped, maxSize: 100) }
    }
}

/// PMTiles v3 read from its specification: the 127-byte header, gzipped
/// directories of varints, leaf directories by run length 0.
struct PMTilesReader {
    struct Header {
        var rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength, dataOffset, dataLength: UInt64
        var tiles: UInt64
        var clustered: Bool
        var internalCompression, tileCompression, tileType: UInt8
        var zooms: (UInt8, UInt8)
    }

    struct Entry {
        var tileID, offset, length, runLength: UInt64
    }

    let bytes: [UInt8]
    let header: Header
    /// The root directory and the leaves, each read once.
    private let root: [Entry]
    private let leaves: [UInt64: [Entry]]

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        guard bytes.count >= 127, Array(bytes[0..<7]) == Array("PMTiles".utf8), bytes[7] == 3 else {
            throw CocoaError(.fileReadCorruptFile)
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        header = Header(
            rootOffset: u64(8), rootLength: u64(16), metadataOffset: u64(24), metadataLength: u64(32), leavesOffset: u64(40),
            leavesLength: u64(48), dataOffset: u64(56), dataLength: u64(64), tiles: u64(72), clustered: bytes[96] == 1,
            internalCompression: bytes[97], tileCompression: bytes[98], tileType: bytes[99], zooms: (bytes[100], bytes[101]))
        root = try Self.directory(bytes, header.rootOffset, header.rootLength)
        var leaves: [UInt64: [Entry]] = [:]
        for entry in root where entry.runLength == 0 {
            leaves[entry.offset] = try Self.directory(bytes, header.leavesOffset + entry.offset, entry.length)
        }
        self.leaves = leaves
    }

    var metadata: [UInt8] {
        get throws { try Gzip.decompress(slice(header.metadataOffset, header.metadataLength)) }
    }

    func slice(_ offset: UInt64, _ length: UInt64) -> [UInt8] { Array(bytes[Int(offset)..<Int(offset + length)]) }

    static func directory(_ bytes: [UInt8], _ offset: UInt64, _ length: UInt64) throws -> [Entry] {
        let raw = try Gzip.decompress(Array(bytes[Int(offset)..<Int(offset + length)]))
        var at = 0
        func varint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while true {
                let byte = raw[at]
                at += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        let count = Int(varint())
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: count)
        var last: UInt64 = 0
        for i in 0..<count {
            last += varint()
            entries[i].tileID = last
        }
        for i in 0..<count { entries[i].runLength = varint() }
        for i in 0..<count { entries[i].length = varint() }
        for i in 0..<count {
            let value = varint()
            entries[i].offset = value == 0 && i > 0 ? entries[i - 1].offset + entries[i - 1].length : value - 1
        }
        return entries
    }

    /// The tile of `id`, following a leaf when the root points to one.
    func tile(_ id: UInt64) throws -> [UInt8]? {
        var entries = root
        for _ in 0..<2 {
            // The last entry at or before `id` (entries are sorted by id).
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let entry = entries[low - 1]
            if entry.runLength == 0 {
                entries = leaves[entry.offset] ?? []
                continue
            }
            guard id < entry.tileID + entry.runLength else { return nil }
            return slice(header.dataOffset + entry.offset, entry.length)
        }
        return nil
    }
}
