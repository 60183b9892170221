import Geo

extension ClusterIndex {
    /// The markers in `box` at `zoom` (supercluster's `getClusters`): the
    /// zoom floored and clamped to minZoom...maxZoom + 1; a box across the
    /// antimeridian gives its eastern half's markers, then its western's.
    /// Throws for a NaN zoom.
    public func clusters(in box: BoundingBox, zoom: Double) throws(ClusterError) -> [ClusterMarker] {
        try typed { try ClusterQueries(self).clusters(in: box, zoom: zoom) }
    }

    /// As ``clusters(in:zoom:)``, with each cluster's expansion zoom, and
    /// point `selected` never hidden in a cluster: the cluster holding it
    /// comes with count − 1 and its mean recomputed without it, then the
    /// point itself (a cluster left with one point becomes that point).
    public func markers(in box: BoundingBox, zoom: Double, selected: Int? = nil) throws(ClusterError) -> [ClusterMarker] {
        try typed { try ClusterQueries(self).markers(in: box, zoom: zoom, selected: selected) }
    }

    /// The markers cluster `id` splits into one zoom further in.
    public func children(of id: Int) throws(ClusterError) -> [ClusterMarker] {
        try typed { try ClusterQueries(self).children(of: id) }
    }

    /// The indices of cluster `id`'s points, `limit` of them (0 means 10)
    /// after skipping `offset`, in supercluster's depth-first order.
    public func leaves(of id: Int, limit: Int = 10, offset: Int = 0) throws(ClusterError) -> [Int] {
        try typed { try ClusterQueries(self).leaves(of: id, limit: limit, offset: offset) }
    }

    /// The zoom at which cluster `id` splits.
    public func expansionZoom(of id: Int) throws(ClusterError) -> Int {
        try typed { try ClusterQueries(self).expansionZoom(of: id) }
    }

    /// The lowest zoom from which point `index` is in no cluster.
    public func unclusterZoom(ofPoint index: Int) throws(ClusterError) -> Int {
        try typed { try ClusterQueries(self).unclusterZoom(ofPoint: index) }
    }

    /// The in-memory index reads nothing that can fail: every error is a
    /// ``ClusterError``.
    private func typed<T>(_ body: () throws -> T) throws(ClusterError) -> T {
        do {
            return try body()
        } catch let error as ClusterError {
            throw error
        } catch {
            throw .corruptData("\(error)")
        }
    }
}
