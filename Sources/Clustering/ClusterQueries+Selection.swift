import Geo

extension ClusterQueries {
    /// The markers in `box` at `zoom` with point `selected` never hidden:
    /// where a cluster holds it, that cluster comes with count − 1 and its
    /// mean recomputed without the point, (n·c − p) / (n − 1), followed by
    /// the point as its own marker; a cluster left with one point becomes
    /// that point's marker. The point also comes when it lies in the box
    /// but its cluster does not. Clusters carry their expansion zoom.
    ///
    /// The reduced cluster keeps its id, so its leaves and expansion zoom
    /// are still those of the whole cluster.
    package func markers(in box: BoundingBox, zoom: Double, selected: Int? = nil) throws -> [ClusterMarker] {
        try markers(in: box.unitRectangles, level: try limitedZoom(zoom), selected: selected)
    }

    /// ``markers(in:zoom:selected:)`` over projected rectangles, at a level
    /// already limited: what a box and a map tile share.
    package func markers(in rectangles: [UnitRectangle], level: Int, selected: Int?) throws -> [ClusterMarker] {
        var markers = try hierarchy.markers(atZoom: level, in: rectangles)
        for i in markers.indices {
            guard var cluster = markers[i].cluster, cluster.expansionZoom == nil else { continue }
            cluster.expansionZoom = try expansionZoom(of: cluster.id)
            markers[i] = .cluster(cluster)
        }
        guard let selected else { return markers }
        guard level < (try unclusterZoom(ofPoint: selected)) else { return markers }

        // Down from the points' level to the query's, following the
        // point's marker.
        var index = selected
        for zoom in stride(from: options.maxZoom + 1, to: level, by: -1) {
            index = try hierarchy.nextIndex(ofMarker: index, atZoom: zoom)
        }
        let holderID = try hierarchy.markerID(atZoom: level, index: index)
        let point = try hierarchy.projectedPoint(selected)

        if let i = markers.firstIndex(where: { $0.cluster?.id == holderID }), let holder = markers[i].cluster {
            let remaining = holder.count - 1
            if remaining == 1 {
                let other = try leaves(of: holder.id, limit: 2).first { $0 != selected }
                markers[i] = .point(other ?? selected)
            } else {
                var reduced = holder
                reduced.count = remaining
                reduced.x = (holder.x * Double(holder.count) - point.x) / Double(remaining)
                reduced.y = (holder.y * Double(holder.count) - point.y) / Double(remaining)
                markers[i] = .cluster(reduced)
            }
            markers.insert(.point(selected), at: i + 1)
        } else if rectangles.contains(where: { $0.contains(x: point.x, y: point.y) }) {
            markers.append(.point(selected))
        }
        return markers
    }
}
