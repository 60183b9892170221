import Geo
import PropertyBased
import TestSupport
import Testing

@testable import Clustering

/// The edge rule of tiles on random lists: at each zoom, the markers inside
/// the tiles (their interiors, buffers aside) are `getClusters` over the
/// world, each once, with or without a selected store; and every tile that
/// holds a marker is one the export walks (`occupiedTiles`).
@Suite struct TileEdgeRuleTests {
    /// A random list: a few towns of stores (so that they cluster), some
    /// near the antimeridian and the tile edges of low zooms (the equator,
    /// the prime meridian), some strewn over the world.
    static func points(count: Int, towns: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(random.next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
        }
        let fixed = [Coordinate(latitude: 0.001, longitude: 179.99), Coordinate(latitude: -0.001, longitude: -179.99), Coordinate(latitude: 0, longitude: 0)]
        let centres = (0..<towns).map { i in
            i < fixed.count ? fixed[i] : Coordinate(latitude: uniform(-70...70), longitude: uniform(-180...180))
        }
        return (0..<count).map { i in
            if i % 7 == 6 { return Coordinate(latitude: uniform(-80...80), longitude: uniform(-180...180)) }
            let centre = centres[i % towns]
            let spread = [0.01, 0.3, 3][i % 3]
            var longitude = centre.longitude + uniform(-spread...spread)
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            return Coordinate(latitude: max(-84, min(84, centre.latitude + uniform(-spread...spread))), longitude: longitude)
        }
    }

    @Test func interiorsPartitionTheWorldsMarkersAtEveryZoom() throws {
        let input = zip(Gen.int(in: 1...400), Gen.int(in: 1...8), Gen.int(in: 0...7), Gen.bool(), Gen.int(in: 0...Int(Int32.max)))
        var random = SplitMix64(seed: 0x7113)
        for trial in 0..<60 {
            let (count, towns, zoom, selects, seed) = input.run(using: &random)
            let points = Self.points(count: count, towns: towns, seed: UInt64(seed))
            let index = try ClusterIndex(points: points, options: ClusterOptions()).withExpansionZooms()
            let selected = selects ? seed % count : nil
            let context = "trial \(trial): \(count) stores in \(towns) towns, zoom \(zoom), selected \(selected.map(String.init) ?? "none")"
            let extent = 4096
            let occupied = Set(try ClusterQueries(index).occupiedTiles(zoom: zoom))
            var inside: [Int] = []
            var seen = 0
            // Every tile at low zooms (4^zoom), else the occupied ones and
            // a ring of their neighbours.
            let tiles: Set<TileAddress> =
                zoom <= 4
                ? Set((0..<(1 << zoom)).flatMap { x in (0..<(1 << zoom)).map { TileAddress(z: zoom, x: x, y: $0) } })
                : Set(
                    occupied.flatMap { tile in
                        (-1...1).flatMap { dx in
                            (-1...1).compactMap { dy -> TileAddress? in
                                let size = 1 << zoom, y = tile.y + dy
                                return (0..<size).contains(y) ? TileAddress(z: zoom, x: (tile.x + dx + size) % size, y: y) : nil
                            }
                        }
                    })
            for tile in tiles {
                let features = try index.tile(zoom: zoom, x: tile.x, y: tile.y, extent: extent, selected: selected)
                if !features.isEmpty {
                    seen += 1
                    // The export walks tiles without a selection.
                    if selected == nil { #expect(occupied.contains(tile), "\(context): tile \(tile) has markers but the export would skip it") }
                }
                for feature in features where (0..<extent).contains(feature.x) && (0..<extent).contains(feature.y) {
                    inside.append(feature.marker.cluster.map { -1 - $0.id } ?? feature.marker.pointIndex!)
                }
            }
            let world = try ClusterQueries(index).markers(in: .world, zoom: Double(zoom), selected: selected).map {
                $0.cluster.map { -1 - $0.id } ?? $0.pointIndex!
            }
            #expect(inside.count == Set(inside).count, "\(context): a marker inside two tiles")
            #expect(inside.sorted() == world.sorted(), "\(context)")
            #expect(seen > 0, "\(context)")
        }
    }
}
