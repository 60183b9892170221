/// How points are clustered: mapbox/supercluster 8.0.1's options, with its
/// defaults.
///
/// `radius` is in pixels of a tile `extent` pixels wide, so at zoom `z` two
/// points merge when they lie within `radius / (extent · 2^z)` of each other
/// in Mercator units of the whole world (0…1).
public struct ClusterOptions: Sendable, Hashable, Codable {
    /// The lowest zoom at which clusters are made.
    public var minZoom: Int
    /// The highest zoom at which points are clustered; above it every point
    /// is its own marker.
    public var maxZoom: Int
    /// How many points (summed counts) it takes to make a cluster.
    public var minPoints: Int
    /// The cluster radius, in pixels of a tile `extent` wide.
    public var radius: Double
    /// The tile extent the radius is measured against.
    public var extent: Double
    /// The KD-tree's leaf size (it decides the order in which neighbours are
    /// found, so it is part of the results).
    public var nodeSize: Int

    public init(
        minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2,
        radius: Double = 40, extent: Double = 512, nodeSize: Int = 64
    ) {
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.radius = radius
        self.extent = extent
        self.nodeSize = nodeSize
    }

    /// Checks what the ids and the arithmetic need: a cluster id keeps the
    /// zoom + 1 in 5 bits, so zooms lie in 0…30.
    func validated() throws(ClusterError) -> ClusterOptions {
        guard (0...30).contains(minZoom), (0...30).contains(maxZoom), minZoom <= maxZoom else {
            throw .invalidOptions("zooms must satisfy 0 <= minZoom (\(minZoom)) <= maxZoom (\(maxZoom)) <= 30")
        }
        guard minPoints >= 1 else { throw .invalidOptions("minPoints \(minPoints) must be at least 1") }
        guard radius.isFinite, radius > 0, extent.isFinite, extent > 0 else {
            throw .invalidOptions("radius (\(radius)) and extent (\(extent)) must be finite and positive")
        }
        var options = self
        // kdbush clamps its node size the same way.
        options.nodeSize = min(max(nodeSize, 2), 65535)
        return options
    }

    /// The radius at zoom `z` in world units: radius / (extent · 2^z).
    func radius(atZoom z: Int) -> Double {
        radius / (extent * pow2(z))
    }
}

/// 2^z for a small integer, exactly (as JavaScript's `Math.pow(2, z)`).
func pow2(_ z: Int) -> Double {
    Double(sign: .plus, exponent: z, significand: 1)
}

extension ClusterOptions {
    /// The options as a catalog stores them beside an index, to tell
    /// whether the index still fits the options asked for.
    package var storedDescription: String {
        "minZoom \(minZoom) maxZoom \(maxZoom) minPoints \(minPoints) "
            + "radius \(radius) extent \(extent) nodeSize \(nodeSize)"
    }
}
