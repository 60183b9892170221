import Foundation
import Geo
import TestSupport
import Testing

@testable import Clustering

/// `ClusterIndex.tile(zoom:x:y:)` against mapbox/supercluster 8.0.1's
/// `getTile`, and the edge rule of tiles: each marker is inside exactly one
/// tile of its zoom.
@Suite struct ClusterTileTests {
    struct Fixture: Decodable {
        struct Tile: Decodable {
            var z: Int
            var x: Int
            var y: Int
            /// [id, x, y, point_count]
            var features: [[Int]]
        }
        var points: [[Double]]
        var tiles: [Tile]
    }

    /// `Tests/Fixtures/Supercluster/tiles.json`, written by
    /// `Benchmarks/supercluster-tiles.mjs` from supercluster itself.
    static let fixture: Fixture = {
        let url = Paths.fixtures.appendingPathComponent("Supercluster/tiles.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    static let points = fixture.points.map { Coordinate(latitude: $0[0], longitude: $0[1]) }

    static let index: ClusterIndex = {
        // Radius ÷ extent as supercluster's 320 ÷ 4096.
        try! ClusterIndex(points: points, options: ClusterOptions(maxZoom: 16))
    }()

    static func row(_ feature: TileFeature) -> [Int] {
        switch feature.marker {
        case .cluster(let cluster): [cluster.id, feature.x, feature.y, cluster.count]
        case .point(let index): [index, feature.x, feature.y, 1]
        }
    }

    @Test func everyTileIsSuperclustersGetTile() throws {
        var compared = 0
        for tile in Self.fixture.tiles {
            let ours = try Self.index.tile(zoom: tile.z, x: tile.x, y: tile.y) { Self.points[$0] }.map(Self.row)
            #expect(ours == tile.features, "tile \(tile.z)/\(tile.x)/\(tile.y)")
            compared += ours.count
        }
        #expect(compared > 6000)
    }

    @Test(arguments: 0...5)
    func eachMarkerIsInsideExactlyOneTileOfItsZoom(zoom: Int) throws {
        let extent = 4096
        var inside: [Int] = []
        for x in 0..<(1 << zoom) {
            for y in 0..<(1 << zoom) {
                for feature in try Self.index.tile(zoom: zoom, x: x, y: y, extent: extent)
                where (0..<extent).contains(feature.x) && (0..<extent).contains(feature.y) {
                    inside.append(Self.row(feature)[0])
                }
            }
        }
        let world = try Self.index.clusters(in: .world, zoom: Double(zoom)).map { $0.cluster?.id ?? $0.pointIndex! }
        #expect(inside.count == Set(inside).count, "a marker in two tiles at zoom \(zoom)")
        #expect(inside.sorted() == world.sorted())
    }

    @Test func theSelectedStoreIsAPointInTheTileThatHoldsItAtEveryZoom() throws {
        for selected in [0, 950, 1700, 2999] {
            let point = Self.fixture.points[selected]
            for zoom in 0...17 {
                let z2 = Double(1 << zoom)
                let x = Int(WebMercator.unitX(longitude: point[1]) * z2), y = Int(WebMercator.unitY(latitude: point[0]) * z2)
                let features = try Self.index.tile(zoom: zoom, x: min(x, (1 << zoom) - 1), y: min(y, (1 << zoom) - 1), selected: selected)
                #expect(features.contains { $0.marker == .point(selected) }, "store \(selected) at zoom \(zoom)")
                // Counted once: the counts add up as without the selection.
                let plain = try Self.index.tile(zoom: zoom, x: min(x, (1 << zoom) - 1), y: min(y, (1 << zoom) - 1))
                #expect(features.map(\.marker.count).reduce(0, +) == plain.map(\.marker.count).reduce(0, +))
            }
        }
    }

    @Test func aTileOutsideItsZoomIsRefused() {
        #expect(throws: ClusterError.invalidTile(z: 2, x: 4, y: 0)) { try Self.index.tile(zoom: 2, x: 4, y: 0) }
        #expect(throws: ClusterError.invalidTile(z: 31, x: 0, y: 0)) { try Self.index.tile(zoom: 31, x: 0, y: 0) }
        #expect(throws: ClusterError.invalidTile(z: 1, x: 0, y: -1)) { try Self.index.tile(zoom: 1, x: 0, y: -1) }
    }
}
