import Geo

/// A cluster hierarchy that queries can read: built in memory
/// (``ClusterIndex``) or read back level by level from storage.
///
/// ``ClusterQueries`` answers every query over these requirements.
package protocol ClusterHierarchy {
    var options: ClusterOptions { get }
    var pointCount: Int { get }
    /// The level of markers at `zoom` (minZoom...maxZoom + 1), or nil.
    func level(atZoom zoom: Int) throws -> ClusterLevel?
    /// The index at `zoom − 1` of the marker at `index` of level `zoom`.
    func nextIndex(ofMarker index: Int, atZoom zoom: Int) throws -> Int
    /// The lowest zoom at which point `index` is its own marker.
    func storedUnclusterZoom(ofPoint index: Int) throws -> Int
    /// Point `index`'s projected, Float-rounded position.
    func projectedPoint(_ index: Int) throws -> (x: Double, y: Double)
    /// The markers of level `zoom` inside `rectangles`, in KD-tree order
    /// (a stored index reads only the tree and the markers found).
    func markers(atZoom zoom: Int, in rectangles: [UnitRectangle]) throws -> [ClusterMarker]
    /// The id of marker `index` of level `zoom`.
    func markerID(atZoom zoom: Int, index: Int) throws -> Int
}

extension ClusterHierarchy {
    package func markers(atZoom zoom: Int, in rectangles: [UnitRectangle]) throws -> [ClusterMarker] {
        guard let level = try level(atZoom: zoom) else { return [] }
        var markers: [ClusterMarker] = []
        for rectangle in rectangles {
            level.tree.range(minX: rectangle.minX, minY: rectangle.minY, maxX: rectangle.maxX, maxY: rectangle.maxY) {
                markers.append(level.marker(at: Int($0)))
            }
        }
        return markers
    }

    package func markerID(atZoom zoom: Int, index: Int) throws -> Int {
        guard let level = try level(atZoom: zoom), index < level.markerCount else {
            throw ClusterError.corruptData("no marker \(index) at zoom \(zoom)")
        }
        return level.id[index]
    }
}

/// The queries, written once over any ``ClusterHierarchy``.
package struct ClusterQueries<Hierarchy: ClusterHierarchy> {
    package let hierarchy: Hierarchy
    var options: ClusterOptions { hierarchy.options }
    var pointCount: Int { hierarchy.pointCount }

    package init(_ hierarchy: Hierarchy) {
        self.hierarchy = hierarchy
    }

    /// The level a query at `zoom` reads: supercluster floors the zoom and
    /// clamps it to minZoom...maxZoom + 1.
    package func limitedZoom(_ zoom: Double) throws(ClusterError) -> Int {
        guard !zoom.isNaN else { throw .invalidZoom(zoom) }
        let floored = zoom.rounded(.down)
        if floored <= Double(options.minZoom) { return options.minZoom }
        if floored >= Double(options.maxZoom + 1) { return options.maxZoom + 1 }
        return Int(floored)
    }

    /// The markers in `box` at `zoom` (supercluster's `getClusters`): the
    /// clusters and single points whose positions lie in the box, in its
    /// order.
    package func clusters(in box: BoundingBox, zoom: Double) throws -> [ClusterMarker] {
        try hierarchy.markers(atZoom: try limitedZoom(zoom), in: box.unitRectangles)
    }

    /// Where cluster `id` was made: the level its absorbing marker sat in
    /// (zoom + 1) and that marker's index there.
    private func origin(of id: Int) throws -> (zoom: Int, index: Int, level: ClusterLevel) {
        let offset = id - pointCount
        guard offset > 0 else { throw ClusterError.unknownCluster(id) }
        let zoom = offset % 32, index = offset >> 5
        guard let level = try hierarchy.level(atZoom: zoom), index < level.markerCount else {
            throw ClusterError.unknownCluster(id)
        }
        return (zoom, index, level)
    }

    /// The markers cluster `id` was made of, one zoom further in
    /// (supercluster's `getChildren`): found within the cluster radius of
    /// its absorbing marker, those whose parent it is.
    package func children(of id: Int) throws -> [ClusterMarker] {
        let (zoom, index, level) = try origin(of: id)
        let r = options.radius / (options.extent * pow2(zoom - 1))
        var children: [ClusterMarker] = []
        level.tree.within(x: level.x[index], y: level.y[index], radius: r) {
            let k = Int($0)
            if level.parent[k] == id { children.append(level.marker(at: k)) }
        }
        guard !children.isEmpty else { throw ClusterError.unknownCluster(id) }
        return children
    }

    /// The points of cluster `id` (supercluster's `getLeaves`), depth first
    /// through its children: `limit` of them (0 means 10, as there) after
    /// skipping `offset`.
    package func leaves(of id: Int, limit: Int = 10, offset: Int = 0) throws -> [Int] {
        let limit = limit == 0 ? 10 : limit
        var leaves: [Int] = []
        _ = try appendLeaves(&leaves, of: id, limit: limit, offset: offset, skipped: 0)
        return leaves
    }

    private func appendLeaves(_ leaves: inout [Int], of id: Int, limit: Int, offset: Int, skipped: Int) throws -> Int {
        var skipped = skipped
        for child in try children(of: id) {
            switch child {
            case let .cluster(cluster):
                if skipped + cluster.count <= offset {
                    skipped += cluster.count
                } else {
                    skipped = try appendLeaves(&leaves, of: cluster.id, limit: limit, offset: offset, skipped: skipped)
                }
            case let .point(index):
                if skipped < offset {
                    skipped += 1
                } else {
                    leaves.append(index)
                }
            }
            if leaves.count == limit { break }
        }
        return skipped
    }

    /// The zoom at which cluster `id` splits into more than one marker
    /// (supercluster's `getClusterExpansionZoom`).
    package func expansionZoom(of id: Int) throws -> Int {
        var id = id
        var zoom = try origin(of: id).zoom - 1
        while zoom <= options.maxZoom {
            let children = try children(of: id)
            zoom += 1
            guard children.count == 1, let only = children[0].cluster else { break }
            id = only.id
        }
        return zoom
    }

    /// The lowest zoom from which point `index` is not inside any cluster:
    /// at that zoom and every zoom above it, queries show it alone.
    package func unclusterZoom(ofPoint index: Int) throws -> Int {
        guard (0..<pointCount).contains(index) else {
            throw ClusterError.pointOutOfRange(index: index, count: pointCount)
        }
        return try hierarchy.storedUnclusterZoom(ofPoint: index)
    }
}
