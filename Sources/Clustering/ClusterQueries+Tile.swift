import Geo

/// One marker of a map tile, positioned in the tile's units: (0, 0) its
/// top-left corner, (extent, extent) its bottom-right; a marker in the
/// buffer around the tile lies a little outside.
public struct TileFeature: Sendable, Hashable {
    public var marker: ClusterMarker
    public var x: Int
    public var y: Int

    public init(marker: ClusterMarker, x: Int, y: Int) {
        self.marker = marker
        self.x = x
        self.y = y
    }
}

/// A map tile's address in the XYZ scheme (x eastwards from the
/// antimeridian, y southwards from the north), as map SDKs request tiles.
public struct TileAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    public static func < (a: TileAddress, b: TileAddress) -> Bool { (a.z, a.x, a.y) < (b.z, b.x, b.y) }

    public var description: String { "\(z)/\(x)/\(y)" }
}

extension ClusterIndex {
    /// The markers of tile `z`/`x`/`y` (supercluster 8.0.1's
    /// `getTile(z, x, y)`): those of the zoom's level within the tile
    /// widened by the cluster radius on every side (so a marker drawn at
    /// the edge shows whole in both tiles), and in the first and last
    /// columns those across the antimeridian, positioned in units of
    /// `extent` (MVT's 4096 by default; clusters depend only on the index's
    /// radius ÷ extent, so an index built at 40 ÷ 512 tiles as supercluster
    /// at 320 ÷ 4096). Clusters carry their expansion zoom; point
    /// `selected` is never hidden in a cluster (``markers(in:zoom:selected:)``).
    ///
    /// A point is placed where `coordinate` says it is, as supercluster
    /// places it from its GeoJSON; without it, where the index keeps it,
    /// rounded to 32-bit floats as supercluster's tree does (a unit off at
    /// high zooms, now and then).
    ///
    /// Throws for z outside 0...30 or x, y outside 0..<2^z.
    public func tile(
        zoom z: Int, x: Int, y: Int, extent: Int = 4096, selected: Int? = nil, coordinate: ((Int) -> Coordinate)? = nil
    ) throws(ClusterError) -> [TileFeature] {
        guard (0...30).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y), extent > 0 else {
            throw .invalidTile(z: z, x: x, y: y)
        }
        do {
            return try ClusterQueries(self).tile(zoom: z, x: x, y: y, extent: extent, selected: selected, coordinate: coordinate)
        } catch let error as ClusterError {
            throw error
        } catch {
            throw .corruptData("\(error)")
        }
    }
}

extension ClusterQueries {
    package func tile(zoom z: Int, x: Int, y: Int, extent: Int, selected: Int?, coordinate: ((Int) -> Coordinate)?) throws -> [TileFeature] {
        let level = try limitedZoom(Double(z))
        let z2 = pow2(z)
        // supercluster: p = radius / extent, in tiles.
        let p = options.radius / options.extent
        let top = (Double(y) - p) / z2, bottom = (Double(y) + 1 + p) / z2
        var features: [TileFeature] = []
        func add(_ rectangle: UnitRectangle, tileX: Double) throws {
            for marker in try markers(in: [rectangle], level: level, selected: selected) {
                let point =
                    switch marker {
                    case .cluster(let cluster): (x: cluster.x, y: cluster.y)
                    case .point(let index):
                        if let coordinate {
                            (x: WebMercator.unitX(longitude: coordinate(index).longitude), y: WebMercator.unitY(latitude: coordinate(index).latitude))
                        } else {
                            try hierarchy.projectedPoint(index)
                        }
                    }
                features.append(
                    TileFeature(
                        marker: marker, x: Self.jsRound(Double(extent) * (point.x * z2 - tileX)),
                        y: Self.jsRound(Double(extent) * (point.y * z2 - Double(y)))))
            }
        }
        try add(UnitRectangle(minX: (Double(x) - p) / z2, minY: top, maxX: (Double(x) + 1 + p) / z2, maxY: bottom), tileX: Double(x))
        // The buffer across the antimeridian, as supercluster adds it.
        if x == 0 { try add(UnitRectangle(minX: 1 - p / z2, minY: top, maxX: 1, maxY: bottom), tileX: z2) }
        if x == (1 << z) - 1 { try add(UnitRectangle(minX: 0, minY: top, maxX: p / z2, maxY: bottom), tileX: -1) }
        return features
    }

    /// The tiles of zoom `z` that ``tile(zoom:x:y:extent:selected:coordinate:)``
    /// may find a marker in: each marker's own tile and those whose buffer
    /// reaches it, across the antimeridian too, in address order. An
    /// export walks these instead of all 4^z tiles (268 million at z14).
    package func occupiedTiles(zoom z: Int) throws -> [TileAddress] {
        let level = try limitedZoom(Double(z))
        let size = 1 << z, z2 = pow2(z)
        let p = options.radius / options.extent
        var tiles = Set<Int>()
        for marker in try hierarchy.markers(atZoom: level, in: [UnitRectangle(minX: 0, minY: 0, maxX: 1, maxY: 1)]) {
            let point =
                switch marker {
                case .cluster(let cluster): (x: cluster.x, y: cluster.y)
                case .point(let index): try hierarchy.projectedPoint(index)
                }
            // getTile(x) reads markers with x − p ≤ tileX ≤ x + 1 + p.
            let tileX = point.x * z2, tileY = point.y * z2
            for y in max(0, Int((tileY - 1 - p).rounded(.up)))...min(size - 1, Int((tileY + p).rounded(.down))) {
                for x in Int((tileX - 1 - p).rounded(.up))...Int((tileX + p).rounded(.down)) {
                    tiles.insert(((x % size + size) % size) << 31 | y)
                }
            }
        }
        return tiles.sorted().map { TileAddress(z: z, x: $0 >> 31, y: $0 & (1 << 31 - 1)) }
    }

    /// JavaScript's `Math.round`: halves round up (−2.5 → −2), where
    /// Swift's `rounded()` rounds them away from zero.
    package static func jsRound(_ value: Double) -> Int {
        Int((value + 0.5).rounded(.down))
    }
}
