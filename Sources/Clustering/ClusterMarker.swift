import Geo

/// What a clustering query returns for one place on the map: a cluster, or
/// a single point (by its index in the input, i.e. its list position).
public enum ClusterMarker: Sendable, Hashable {
    case cluster(Cluster)
    case point(Int)

    /// The cluster, if this is one.
    public var cluster: Cluster? {
        if case let .cluster(cluster) = self { return cluster }
        return nil
    }

    /// The point's index, if this is a single point.
    public var pointIndex: Int? {
        if case let .point(index) = self { return index }
        return nil
    }

    /// How many points it stands for.
    public var count: Int { cluster?.count ?? 1 }
}

/// A cluster of points: its id (supercluster's `cluster_id`), how many
/// points it holds and where it sits.
public struct Cluster: Sendable, Hashable {
    /// supercluster's id: (i << 5) + (z + 1) + N, with i the index of the
    /// absorbing marker in its level, z the zoom the cluster was made at and
    /// N the number of points. It names the cluster at every zoom it lives.
    public var id: Int
    public var count: Int
    /// The count-weighted mean of its points' projected positions (Mercator
    /// units of the world, 0…1).
    public var x: Double
    public var y: Double
    /// The zoom at which it splits (supercluster's
    /// `getClusterExpansionZoom`), when the query computed it.
    public var expansionZoom: Int?

    public init(id: Int, count: Int, x: Double, y: Double, expansionZoom: Int? = nil) {
        self.id = id
        self.count = count
        self.x = x
        self.y = y
        self.expansionZoom = expansionZoom
    }

    public var latitude: Double { WebMercator.latitude(unitY: y) }
    public var longitude: Double { WebMercator.longitude(unitX: x) }
}
