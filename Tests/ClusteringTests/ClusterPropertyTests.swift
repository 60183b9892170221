import TestSupport
import Testing

@testable import Clustering

/// Properties over seeded random point sets: towns of points around a few
/// centres (so that clusters form at every zoom), plus scattered ones.
@Suite struct ClusterPropertyTests {
    static func points(seed: UInt64, count: Int) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        let centres = (0..<8).map { _ in
            (Double.random(in: -60...60, using: &random), Double.random(in: -180...180, using: &random))
        }
        return (0..<count).map { i in
            if i % 5 == 0 {
                return Coordinate(
                    latitude: .random(in: -80...80, using: &random), longitude: .random(in: -180...180, using: &random))
            }
            let (lat, lng) = centres[Int.random(in: 0..<centres.count, using: &random)]
            let spread = [0.0001, 0.01, 1][Int.random(in: 0..<3, using: &random)]
            return Coordinate(
                latitude: lat + .random(in: -spread...spread, using: &random),
                longitude: max(-180, min(180, lng + .random(in: -spread...spread, using: &random))))
        }
    }

    static let seeds: [UInt64] = [1, 2, 3]

    @Test(arguments: seeds)
    func worldCountsSumToThePointsAtEveryZoom(seed: UInt64) throws {
        let points = Self.points(seed: seed, count: 1_500)
        let index = try ClusterIndex(points: points)
        for zoom in 0...18 {
            let markers = try index.clusters(in: .world, zoom: Double(zoom))
            #expect(markers.map(\.count).reduce(0, +) == points.count, "seed \(seed), zoom \(zoom)")
        }
        #expect(try index.clusters(in: .world, zoom: 17).count == points.count)
    }

    @Test(arguments: seeds)
    func leavesAreExactlyThePointsAClusterCounts(seed: UInt64) throws {
        let points = Self.points(seed: seed, count: 1_500)
        let index = try ClusterIndex(points: points)
        for zoom in [0, 3, 7, 12, 16] {
            var seen: [Int] = []
            for marker in try index.clusters(in: .world, zoom: Double(zoom)) {
                switch marker {
                case let .point(i): seen.append(i)
                case let .cluster(cluster):
                    let leaves = try index.leaves(of: cluster.id, limit: .max)
                    #expect(leaves.count == cluster.count, "seed \(seed), zoom \(zoom), cluster \(cluster.id)")
                    #expect(Set(leaves).count == leaves.count)
                    // Paging walks the same sequence.
                    let page = try index.leaves(of: cluster.id, limit: 3, offset: cluster.count / 2)
                    #expect(page == Array(leaves[(cluster.count / 2)..<min(cluster.count, cluster.count / 2 + 3)]))
                    seen += leaves
                }
            }
            #expect(seen.sorted() == Array(0..<points.count), "seed \(seed), zoom \(zoom)")
        }
    }

    @Test(arguments: seeds)
    func selectionNeverHidesTheSelectedPoint(seed: UInt64) throws {
        let points = Self.points(seed: seed, count: 1_500)
        let index = try ClusterIndex(points: points)
        var random = SplitMix64(seed: seed &+ 100)
        for _ in 0..<200 {
            let selected = Int.random(in: 0..<points.count, using: &random)
            let zoom = Double.random(in: 0...18, using: &random)
            let point = points[selected]
            let half = [0.5, 5, 40][Int.random(in: 0..<3, using: &random)]
            // Edges past a pole are clamped; past ±180 they wrap, so a box
            // near the antimeridian crosses it.
            let box = try BoundingBox(
                south: max(-90, point.latitude - half * .random(in: 0...1, using: &random)),
                west: WebMercator.wrappedLongitude(point.longitude - half * .random(in: 0...1, using: &random)),
                north: min(90, point.latitude + half * .random(in: 0...1, using: &random)),
                east: WebMercator.wrappedLongitude(point.longitude + half * .random(in: 0...1, using: &random)))
            let markers = try index.markers(in: box, zoom: zoom, selected: selected)
            #expect(markers.filter { $0 == .point(selected) }.count == 1, "seed \(seed), store \(selected), zoom \(zoom)")
            let world = try index.markers(in: .world, zoom: zoom, selected: selected)
            #expect(world.map(\.count).reduce(0, +) == points.count)
            #expect(world.filter { $0 == .point(selected) }.count == 1)
        }
    }

    @Test(arguments: seeds)
    func aPointIsAloneFromItsUnclusterZoomUpAndClusteredJustBelow(seed: UInt64) throws {
        let points = Self.points(seed: seed, count: 800)
        let index = try ClusterIndex(points: points)
        var alone: [Set<Int>] = []
        for zoom in 0...18 {
            alone.append(Set(try index.clusters(in: .world, zoom: Double(zoom)).compactMap(\.pointIndex)))
        }
        for i in points.indices {
            let from = try index.unclusterZoom(ofPoint: i)
            for zoom in 0...18 {
                #expect(alone[zoom].contains(i) == (zoom >= from), "seed \(seed), point \(i), zoom \(zoom), from \(from)")
            }
        }
    }

    /// The stored form reads back to the same answers.
    @Test func aLevelReadsBackFromItsBytes() throws {
        let index = try ClusterIndex(points: Self.points(seed: 9, count: 600)).withExpansionZooms()
        for level in index.levels {
            let copy = try level.bytes().withUnsafeBytes { try ClusterLevel(bytes: $0) }
            #expect(copy.x == level.x && copy.y == level.y && copy.id == level.id && copy.count == level.count)
            #expect(copy.parent == level.parent && copy.expansionZooms == level.expansionZooms)
            #expect(copy.tree.ids == level.tree.ids && copy.tree.coords == level.tree.coords)
        }
        for level in index.levels {
            for i in 0..<level.markerCount where level.count[i] > 1 {
                #expect(Int(level.expansionZooms[i]) == (try index.expansionZoom(of: level.id[i])))
            }
        }
    }
}
