import Geo

/// Points clustered at every zoom, with mapbox/supercluster 8.0.1's results:
/// the same clusters, counts, ids and positions for the same points in the
/// same order.
///
/// How supercluster builds it (its `load`), which this follows step by step
/// because each step decides results:
/// - each point is projected to Mercator x, y in 0…1 and rounded to a
///   32-bit float;
/// - the levels are built from maxZoom + 1 (every point alone) down to
///   minZoom; at zoom z the radius is r = radius / (extent · 2^z);
/// - the markers of the level above are visited in order; one not yet
///   taken at z finds its neighbours within r in that level's KD-tree; if
///   the untaken ones bring the count above its own and to at least
///   minPoints, it absorbs them all into a cluster at their count-weighted
///   mean, with id (i << 5) + (z + 1) + N; otherwise it (and, when the
///   count reached 2 or more, its untaken neighbours) is carried down
///   unchanged.
///
/// ```swift
/// let index = try ClusterIndex(points: places)
/// let markers = try index.clusters(in: .world, zoom: 3)
/// ```
public struct ClusterIndex: Sendable {
    public let options: ClusterOptions
    public let pointCount: Int
    /// levels[z − minZoom] for z in minZoom...maxZoom + 1.
    package let levels: [ClusterLevel]
    /// Per point, the lowest zoom at which it is its own marker.
    package let unclusterZooms: [UInt8]

    /// Clusters `points` (their order matters, as in supercluster).
    public init(points: [Coordinate], options: ClusterOptions = ClusterOptions()) throws(ClusterError) {
        let options = try options.validated()
        // A cluster id shifts a level index left by 5 in JavaScript's 32-bit
        // integers: indices must stay below 2^26.
        guard points.count < 1 << 26 else { throw .tooManyPoints(points.count) }
        self.options = options
        pointCount = points.count
        var builder = Builder(options: options, pointCount: points.count)
        (levels, unclusterZooms) = builder.build(points)
    }

    /// An index read back from its levels (see ``ClusterIndex/levels``).
    package init(options: ClusterOptions, pointCount: Int, levels: [ClusterLevel], unclusterZooms: [UInt8]) {
        self.options = options
        self.pointCount = pointCount
        self.levels = levels
        self.unclusterZooms = unclusterZooms
    }
}

extension ClusterIndex: ClusterHierarchy {
    package func level(atZoom zoom: Int) -> ClusterLevel? {
        let i = zoom - options.minZoom
        return levels.indices.contains(i) ? levels[i] : nil
    }

    package func nextIndex(ofMarker index: Int, atZoom zoom: Int) -> Int {
        Int(levels[zoom - options.minZoom].next[index])
    }

    package func storedUnclusterZoom(ofPoint index: Int) -> Int {
        Int(unclusterZooms[index])
    }

    package func projectedPoint(_ index: Int) -> (x: Double, y: Double) {
        let points = levels[levels.count - 1]
        return (points.x[index], points.y[index])
    }
}

extension ClusterIndex {
    /// One level's markers as supercluster keeps them in its `trees[z].data`
    /// (position, id, parent id or −1, count), in its order: for checking
    /// the hierarchy against supercluster's own, marker by marker.
    public struct LevelData: Sendable, Hashable {
        public var x: [Double]
        public var y: [Double]
        public var id: [Int]
        public var parent: [Int]
        public var count: [Int]
    }

    /// The markers at `zoom` (minZoom...maxZoom + 1), as supercluster
    /// stores them; nil outside those zooms.
    public func levelData(atZoom zoom: Int) -> LevelData? {
        guard let level = level(atZoom: zoom) else { return nil }
        return LevelData(x: level.x, y: level.y, id: level.id, parent: level.parent, count: level.count.map { Int($0) })
    }
}
