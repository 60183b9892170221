import Clustering
import Testing

@testable import VectorTiles

/// The protobuf bytes of small tiles, pinned, and a tile read back by a
/// reader of the wire format written here from the specification.
@Suite struct VectorTileTests {
    @Test func aOnePointTileIsTheseBytes() {
        let tile = VectorTile(layers: [.init(name: "s", features: [.init(id: 7, x: 25, y: 17, properties: [.init("n", .string("a"))])])])
        // Layer (3, length 31): version 2, name "s", one feature (id 7,
        // tags [0, 0], POINT, geometry [MoveTo 1, zigzag 25 = 50, zigzag
        // 17 = 34]), key "n", value {string "a"}, extent 4096.
        let layer: [UInt8] = [
            0x78, 0x02, 0x0A, 0x01, 0x73,
            0x12, 0x0D, 0x08, 0x07, 0x12, 0x02, 0x00, 0x00, 0x18, 0x01, 0x22, 0x03, 0x09, 0x32, 0x22,
            0x1A, 0x01, 0x6E, 0x22, 0x03, 0x0A, 0x01, 0x61, 0x28, 0x80, 0x20,
        ]
        #expect(tile.encoded() == [0x1A, UInt8(layer.count)] + layer)
    }

    @Test func valuesKeepTheirTypesAndAreWrittenOnce() {
        var layer = VectorTile.Layer(name: "stores")
        for i in 0..<3 {
            layer.features.append(
                .init(id: UInt64(i), x: -i, y: i, properties: [.init("open", .bool(true)), .init("seats", .int(-2)), .init("rating", .double(4.5))]))
        }
        let read = TileReader(VectorTile(layers: [layer]).encoded())
        #expect(read.keys == ["open", "seats", "rating"])
        #expect(read.values == [.bool(true), .int(-2), .double(4.5)])
        #expect(read.features.map(\.id) == [0, 1, 2])
        #expect(read.features.map(\.x) == [0, -1, -2])
        #expect(read.features.map(\.tags) == Array(repeating: [0, 0, 1, 1, 2, 2], count: 3))
        #expect(read.extent == 4096 && read.version == 2)
    }

    @Test func clustersAndStoresCarrySuperclustersProperties() {
        let features = [
            TileFeature(marker: .cluster(Cluster(id: 4133, count: 1520, x: 0.5, y: 0.5, expansionZoom: 6)), x: 100, y: 200),
            TileFeature(marker: .point(3), x: -20, y: 4100),
        ]
        let tile = VectorTile.stores(features) { [.init("id", .string("hc-00\($0)")), .init("name", .string("Haneul"))] }
        let read = TileReader(tile.encoded())
        #expect(read.name == "stores")
        #expect(read.keys == ["cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom", "id", "name"])
        #expect(read.values == [.bool(true), .int(4133), .int(1520), .string("1.5k"), .int(6), .string("hc-003"), .string("Haneul")])
        #expect(read.features.map(\.id) == [4133, 3])
        #expect(read.features[1].x == -20 && read.features[1].y == 4100)
    }

    @Test(arguments: [(999, VectorTile.Value.int(999)), (1000, .string("1k")), (1549, .string("1.5k")), (9999, .string("10k")), (12_500, .string("13k"))])
    func pointCountsAreAbbreviatedAsSuperclusterDoes(count: Int, abbreviated: VectorTile.Value) {
        #expect(VectorTile.abbreviated(count) == abbreviated)
    }
}

/// A reader of one layer of point features, from the wire format
/// (protobuf encoding, vector_tile.proto 2.1), for the tests.
struct TileReader {
    struct Feature {
        var id: UInt64 = 0
        var tags: [UInt64] = []
        var x = 0
        var y = 0
    }
    var version: UInt64 = 0
    var name = ""
    var extent: UInt64 = 0
    var keys: [String] = []
    var values: [VectorTile.Value] = []
    var features: [Feature] = []

    init(_ bytes: [UInt8]) {
        var tile = Fields(bytes[...])
        while let (field, _, layerBytes, _) = tile.next() {
            guard field == 3 else { continue }
            var layer = Fields(layerBytes)
            while let (field, value, payload, _) = layer.next() {
                switch field {
                case 15: version = value
                case 1: name = String(decoding: payload, as: UTF8.self)
                case 5: extent = value
                case 3: keys.append(String(decoding: payload, as: UTF8.self))
                case 4:
                    var fields = Fields(payload)
                    while let (kind, number, text, fixed) = fields.next() {
                        switch kind {
                        case 1: values.append(.string(String(decoding: text, as: UTF8.self)))
                        case 3: values.append(.double(Double(bitPattern: fixed)))
                        case 5: values.append(.int(Int64(number)))
                        case 6: values.append(.int(Int64(bitPattern: number >> 1) ^ -Int64(bitPattern: number & 1)))
                        case 7: values.append(.bool(number != 0))
                        default: break
                        }
                    }
                case 2:
                    var feature = Feature()
                    var fields = Fields(payload)
                    while let (kind, number, packed, _) = fields.next() {
                        switch kind {
                        case 1: feature.id = number
                        case 2: feature.tags = Fields.varints(packed)
                        case 4:
                            let geometry = Fields.varints(packed)
                            let unzig = { (v: UInt64) in Int(Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)) }
                            feature.x = unzig(geometry[1])
                            feature.y = unzig(geometry[2])
                        default: break
                        }
                    }
                    features.append(feature)
                default: break
                }
            }
        }
    }

    struct Fields {
        var bytes: ArraySlice<UInt8>

        init(_ bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
        }

        static func varints(_ bytes: ArraySlice<UInt8>) -> [UInt64] {
            var reader = Fields(bytes)
            var values: [UInt64] = []
            while !reader.bytes.isEmpty { values.append(reader.varint()) }
            return values
        }

        mutating func varint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while let byte = bytes.popFirst() {
                value |= UInt64(byte & 0x7F) << shift
                shift += 7
                if byte < 0x80 { break }
            }
            return value
        }

        /// The next field: number, varint value, length-delimited payload, 64-bit value.
        mutating func next() -> (Int, UInt64, ArraySlice<UInt8>, UInt64)? {
            guard !bytes.isEmpty else { return nil }
            let key = varint()
            switch key & 7 {
            case 0: return (Int(key >> 3), varint(), [], 0)
            case 1:
                let fixed = bytes.prefix(8).reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                bytes = bytes.dropFirst(8)
                return (Int(key >> 3), 0, [], fixed)
            default:
                let length = Int(varint())
                let payload = bytes.prefix(length)
                bytes = bytes.dropFirst(length)
                return (Int(key >> 3), 0, payload, 0)
            }
        }
    }
}
