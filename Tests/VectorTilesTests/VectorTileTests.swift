import Clustering
import TestSupport
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
        let read = VectorTileReader(VectorTile(layers: [layer]).encoded())
        #expect(read.keys == ["open", "seats", "rating"])
        #expect(read.values == [.bool(true), .int(-2), .double(4.5)] as [VectorTileReader.Value])
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
        let read = VectorTileReader(tile.encoded())
        #expect(read.name == "stores")
        #expect(read.keys == ["cluster", "cluster_id", "point_count", "point_count_abbreviated", "expansion_zoom", "id", "name"])
        #expect(
            read.values == [.bool(true), .int(4133), .int(1520), .string("1.5k"), .int(6), .string("hc-003"), .string("Haneul")] as [VectorTileReader.Value])
        #expect(read.features.map(\.id) == [4133, 3])
        #expect(read.features[1].x == -20 && read.features[1].y == 4100)
    }

    @Test(arguments: [(999, VectorTile.Value.int(999)), (1000, .string("1k")), (1549, .string("1.5k")), (9999, .string("10k")), (12_500, .string("13k"))])
    func pointCountsAreAbbreviatedAsSuperclusterDoes(count: Int, abbreviated: VectorTile.Value) {
        #expect(VectorTile.abbreviated(count) == abbreviated)
    }
}
