import Clustering

/// One marker of a list's clusters query: a cluster, or one store with its
/// list position (its carousel index).
public enum ListMarker: Sendable, Hashable {
    case cluster(Cluster)
    case store(index: Int, store: Store)
}
