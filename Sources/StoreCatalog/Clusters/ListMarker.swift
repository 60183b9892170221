import Clustering

/// One marker of a list's clusters query: a cluster, or one store with its
/// list position (its carousel index).
public enum ListMarker: Sendable, Hashable {
    case cluster(Cluster)
    case store(index: Int, store: Store)
}

/// One marker of a map tile of a list (`CatalogEngine.clusterTile(list:zoom:x:y:selected:filter:options:)`):
/// a cluster or a store, and its position in tile units (0…4096 inside the
/// tile, a little outside in its buffer).
public struct ListTileFeature: Sendable, Hashable {
    public var marker: ListMarker
    public var x: Int
    public var y: Int

    public init(marker: ListMarker, x: Int, y: Int) {
        self.marker = marker
        self.x = x
        self.y = y
    }
}
