import Testing

@testable import Clustering

/// Small cases worked out by hand from supercluster's rules (radius 40 px of
/// a 512-px tile: r(z) = 40 / (512 · 2^z) world units).
@Suite struct ClusterIndexTests {
    /// r(z) in degrees of longitude at the equator: 360 · r(z).
    static func radiusDegrees(atZoom z: Int) -> Double {
        360 * 40 / (512 * Double(1 << z))
    }

    /// Two points 0.9 · r(10) apart on the equator: within r at zoom 10 and
    /// below, beyond it (r halves) from zoom 11.
    static let pair = [
        Coordinate(latitude: 0, longitude: 0),
        Coordinate(latitude: 0, longitude: 0.9 * radiusDegrees(atZoom: 10)),
    ]

    @Test func twoPointsMergeAtTheZoomWhoseRadiusReachesThem() throws {
        let index = try ClusterIndex(points: Self.pair)
        #expect(try index.clusters(in: .world, zoom: 11) == [.point(0), .point(1)])
        for zoom in 0...10 {
            let markers = try index.clusters(in: .world, zoom: Double(zoom))
            #expect(markers.count == 1)
            // Made at zoom 10 by marker 0 of the level above: (0 << 5) + 11 + 2.
            #expect(markers.first?.cluster?.id == 13)
            #expect(markers.first?.count == 2)
        }
    }

    @Test func aClusterSitsAtTheMeanOfItsPointsFloatRoundedProjections() throws {
        let cluster = try #require(try ClusterIndex(points: Self.pair).clusters(in: .world, zoom: 5).first?.cluster)
        let x0 = Double(Float(0.5)), x1 = Double(Float(0.5 + Self.pair[1].longitude / 360))
        #expect(cluster.x == (x0 + x1) / 2)
        #expect(cluster.y == Double(Float(0.5)))
        #expect(cluster.latitude == 0)
        #expect(cluster.longitude == (cluster.x - 0.5) * 360)
    }

    @Test func expansionZoomChildrenLeavesAndUnclusterZoomOfAPair() throws {
        let index = try ClusterIndex(points: Self.pair)
        #expect(try index.expansionZoom(of: 13) == 11)
        #expect(try index.children(of: 13) == [.point(0), .point(1)])
        #expect(try index.leaves(of: 13) == [0, 1])
        #expect(try index.unclusterZoom(ofPoint: 0) == 11)
        #expect(try index.unclusterZoom(ofPoint: 1) == 11)
    }

    /// A far point first (index 0), then two close ones: the second absorbs
    /// the third, so the id carries index 1 of its level.
    @Test func aClusterIdEncodesTheAbsorbingIndexAndZoom() throws {
        let index = try ClusterIndex(points: [
            Coordinate(latitude: 40, longitude: -100),
            Coordinate(latitude: 0, longitude: 0),
            Coordinate(latitude: 0, longitude: 0.5 * Self.radiusDegrees(atZoom: 16)),
        ])
        // Within r(16): they merge at maxZoom already; id (1 << 5) + 17 + 3.
        let markers = try index.clusters(in: .world, zoom: 16)
        #expect(
            markers == [.point(0), .cluster(Cluster(id: 52, count: 2, x: markers[1].cluster!.x, y: markers[1].cluster!.y))]
                || markers == [.cluster(Cluster(id: 52, count: 2, x: markers[0].cluster!.x, y: markers[0].cluster!.y)), .point(0)])
        #expect(try index.expansionZoom(of: 52) == 17)
        #expect(try index.leaves(of: 52).sorted() == [1, 2])
        #expect(throws: ClusterError.unknownCluster(53)) { try index.children(of: 53) }
        #expect(throws: ClusterError.unknownCluster(2)) { try index.leaves(of: 2) }
        #expect(throws: ClusterError.unknownCluster(1_000_000)) { try index.expansionZoom(of: 1_000_000) }
    }

    /// Nested: a pair 0.7 r(14) apart (beyond r(15) = r(14) / 2), a third
    /// point 0.8 r(8) away (beyond r(9)).
    @Test func expansionZoomIsWhereTheClusterSplitsIntoItsChildren() throws {
        let points = [
            Coordinate(latitude: 0, longitude: 0),
            Coordinate(latitude: 0, longitude: 0.7 * Self.radiusDegrees(atZoom: 14)),
            Coordinate(latitude: 0, longitude: 0.8 * Self.radiusDegrees(atZoom: 8)),
        ]
        let index = try ClusterIndex(points: points)
        // The pair merges at zoom 14: id (0 << 5) + 15 + 3 = 18.
        #expect(try index.clusters(in: .world, zoom: 14).compactMap(\.cluster).map(\.id) == [18])
        let top = try #require(try index.clusters(in: .world, zoom: 8).first?.cluster)
        #expect(top.count == 3)
        // Made at zoom 8 (the third point joins the pair's cluster there).
        #expect((top.id - 3) % 32 == 9)
        #expect(try index.expansionZoom(of: top.id) == 9)
        let pair = try #require(try index.clusters(in: .world, zoom: 9).compactMap(\.cluster).first)
        #expect(Set(try index.children(of: top.id)) == [.point(2), .cluster(pair)])
        #expect(try index.leaves(of: top.id).sorted() == [0, 1, 2])
        #expect(try index.unclusterZoom(ofPoint: 2) == 9)
        #expect(try index.unclusterZoom(ofPoint: 0) == 15)
    }

    @Test func minPointsKeepsSmallGroupsApart() throws {
        let points = (0..<3).map { Coordinate(latitude: 0, longitude: Double($0) * 0.001) }
        let strict = try ClusterIndex(points: points, options: ClusterOptions(minPoints: 4))
        for zoom in 0...17 {
            #expect(try strict.clusters(in: .world, zoom: Double(zoom)).allSatisfy { $0.cluster == nil })
        }
        #expect(try strict.unclusterZoom(ofPoint: 1) == 0)
        let three = try ClusterIndex(points: points, options: ClusterOptions(minPoints: 3))
        #expect(try three.clusters(in: .world, zoom: 0).map(\.count) == [3])
    }

    @Test func aBoxAcrossTheAntimeridianGivesItsEasternHalfThenItsWestern() throws {
        let index = try ClusterIndex(points: [
            Coordinate(latitude: 10, longitude: -179.5),
            Coordinate(latitude: 10, longitude: 0),
            Coordinate(latitude: 10, longitude: 179.5),
        ])
        let box = try BoundingBox(south: 0, west: 179, north: 20, east: -179)
        #expect(try index.clusters(in: box, zoom: 17) == [.point(2), .point(0)])
        // A west edge of 180 is −180, as supercluster wraps it.
        #expect(try index.clusters(in: BoundingBox(south: 0, west: 180, north: 20, east: 0), zoom: 17) == [.point(0), .point(1)])
        #expect(try index.clusters(in: BoundingBox(south: 0, west: -180, north: 20, east: 180), zoom: 17).count == 3)
        #expect(try index.clusters(in: BoundingBox(south: 0, west: -170, north: 20, east: 170), zoom: 17) == [.point(1)])
        // Edges off the globe are refused before any query.
        #expect(throws: GeoError.self) { try BoundingBox(south: 0, west: 539, north: 20, east: -179) }
    }

    @Test func zoomIsFlooredAndClamped() throws {
        let index = try ClusterIndex(points: Self.pair)
        #expect(try index.clusters(in: .world, zoom: 10.99) == index.clusters(in: .world, zoom: 10))
        #expect(try index.clusters(in: .world, zoom: 99) == index.clusters(in: .world, zoom: 17))
        #expect(try index.clusters(in: .world, zoom: -3) == index.clusters(in: .world, zoom: 0))
        let error = #expect(throws: ClusterError.self) { try index.clusters(in: .world, zoom: .nan) }
        #expect(error?.description == "zoom nan is not a number; give a finite zoom")
    }

    @Test func theSelectedPointLeavesItsClusterWhichKeepsTheRest() throws {
        let points = [
            Coordinate(latitude: 0, longitude: 0),
            Coordinate(latitude: 0, longitude: 0.5 * Self.radiusDegrees(atZoom: 14)),
            Coordinate(latitude: 0, longitude: 0.8 * Self.radiusDegrees(atZoom: 8)),
        ]
        let index = try ClusterIndex(points: points)
        let whole = try #require(try index.clusters(in: .world, zoom: 5).first?.cluster)
        let selected = try index.markers(in: .world, zoom: 5, selected: 2)
        #expect(selected.count == 2)
        let rest = try #require(selected[0].cluster)
        #expect(rest.id == whole.id && rest.count == 2)
        let x0 = Double(Float(0.5 + points[0].longitude / 360)), x1 = Double(Float(0.5 + points[1].longitude / 360))
        #expect(abs(rest.x - (x0 + x1) / 2) < 1e-15)
        #expect(selected[1] == .point(2))
        // A pair's cluster left with one point becomes that point.
        let split = try index.markers(in: .world, zoom: 10, selected: 0)
        #expect(split == [.point(1), .point(0), .point(2)] || split == [.point(2), .point(1), .point(0)])
        // Unclustered already: nothing changes.
        #expect(try index.markers(in: .world, zoom: 16, selected: 2) == index.markers(in: .world, zoom: 16))
    }

    /// An index stored whole and read back answers as the one built: the
    /// same markers at every zoom, the same leaves and uncluster zooms;
    /// bytes cut short or with a tail are refused.
    @Test func anIndexReadBackFromItsBytesAnswersAsTheOneBuilt() throws {
        var random = SystemRandomNumberGenerator()
        let points = (0..<2_000).map { _ in
            Coordinate(latitude: Double.random(in: 30...45, using: &random), longitude: Double.random(in: 120...135, using: &random))
        }
        let built = try ClusterIndex(points: points).withExpansionZooms()
        let bytes = built.bytes()
        let read = try bytes.withUnsafeBytes { raw in try ClusterIndex(bytes: raw, options: built.options) }
        #expect(read.pointCount == built.pointCount)
        let box = try BoundingBox(south: 30, west: 120, north: 45, east: 135)
        for zoom in 0...17 {
            let expected = try built.clusters(in: box, zoom: Double(zoom))
            #expect(try read.clusters(in: box, zoom: Double(zoom)) == expected, "zoom \(zoom)")
            for cluster in expected.compactMap(\.cluster).prefix(3) {
                #expect(try read.leaves(of: cluster.id, limit: 5) == built.leaves(of: cluster.id, limit: 5))
            }
        }
        for point in stride(from: 0, to: points.count, by: 97) {
            #expect(try read.unclusterZoom(ofPoint: point) == built.unclusterZoom(ofPoint: point))
        }
        #expect(throws: ClusterError.self) {
            try Array(bytes.dropLast()).withUnsafeBytes { raw in try ClusterIndex(bytes: raw, options: built.options) }
        }
        #expect(throws: ClusterError.self) {
            try (bytes + [0]).withUnsafeBytes { raw in try ClusterIndex(bytes: raw, options: built.options) }
        }
    }
}
