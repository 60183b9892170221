/// One zoom level of the cluster hierarchy: its markers (clusters and
/// single points) in supercluster's order, and their KD-tree.
///
/// Arrays are parallel, one entry per marker: flat numbers, as supercluster
/// keeps its `data` array, so that clustering touches no objects.
package struct ClusterLevel: Sendable {
    /// The markers' positions rounded to Float, kd-sorted.
    package var tree: KDTree
    /// Projected position (0…1). A point's is its Float-rounded projection;
    /// a cluster's is the count-weighted mean of its members', unrounded.
    package var x: [Double]
    package var y: [Double]
    /// A point's index in the input, or a cluster's id.
    package var id: [Int]
    /// How many points it holds (1 for a point).
    package var count: [UInt32]
    /// The id of the cluster that absorbed it at the zoom below, or −1.
    package var parent: [Int]
    /// Its index in the level below (the cluster that absorbed it, or its
    /// own copy there); empty at the lowest level.
    package var next: [UInt32]
    /// Each cluster's expansion zoom when computed ahead (stored indexes),
    /// 0 for points; empty otherwise.
    package var expansionZooms: [UInt8]

    package var markerCount: Int { id.count }

    /// The marker at `index`, as a query reports it.
    @inline(__always)
    func marker(at index: Int) -> ClusterMarker {
        let count = self.count[index]
        if count > 1 {
            return .cluster(
                Cluster(
                    id: id[index], count: Int(count), x: x[index], y: y[index],
                    expansionZoom: expansionZooms.isEmpty ? nil : Int(expansionZooms[index])))
        }
        return .point(id[index])
    }
}
