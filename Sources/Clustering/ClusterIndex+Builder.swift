import Geo

extension ClusterIndex {
    /// Builds the levels, top down, reusing one neighbour buffer.
    struct Builder {
        let options: ClusterOptions
        let pointCount: Int
        private var neighbours: [UInt32] = []
        private var unclusterZooms: [UInt8]

        init(options: ClusterOptions, pointCount: Int) {
            self.options = options
            self.pointCount = pointCount
            unclusterZooms = Array(repeating: UInt8(options.minZoom), count: pointCount)
        }

        mutating func build(_ points: [Coordinate]) -> ([ClusterLevel], [UInt8]) {
            let n = points.count
            var x = [Double](repeating: 0, count: n), y = [Double](repeating: 0, count: n)
            for (i, point) in points.enumerated() {
                (x[i], y[i]) = WebMercator.roundedUnitPoint(latitude: point.latitude, longitude: point.longitude)
            }
            var current = Self.level(
                x: x, y: y, id: Array(0..<n), count: Array(repeating: 1, count: n), nodeSize: options.nodeSize)
            var levels: [ClusterLevel] = []
            levels.reserveCapacity(options.maxZoom + 2 - options.minZoom)
            for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
                let below = cluster(&current, zoom: zoom)
                levels.append(current)
                current = below
            }
            levels.append(current)
            return (levels.reversed(), unclusterZooms)
        }

        static func level(x: [Double], y: [Double], id: [Int], count: [UInt32], nodeSize: Int) -> ClusterLevel {
            let tree = x.withUnsafeBufferPointer { x in
                y.withUnsafeBufferPointer { y in KDTree(x: x, y: y, nodeSize: nodeSize) }
            }
            return ClusterLevel(
                tree: tree, x: x, y: y, id: id, count: count,
                parent: Array(repeating: -1, count: x.count), next: [], expansionZooms: [])
        }

        /// Clusters `level` (the markers at zoom + 1) into the markers at
        /// `zoom`, recording in `level` each marker's parent and next index.
        private mutating func cluster(_ level: inout ClusterLevel, zoom: Int) -> ClusterLevel {
            let n = level.markerCount
            let r = options.radius(atZoom: zoom)
            let minPoints = options.minPoints
            let idBase = zoom + 1 + pointCount
            var nx: [Double] = [], ny: [Double] = [], nid: [Int] = [], ncount: [UInt32] = []
            nx.reserveCapacity(n); ny.reserveCapacity(n); nid.reserveCapacity(n); ncount.reserveCapacity(n)
            var next = [UInt32](repeating: 0, count: n)
            var parent = level.parent
            var taken = [Bool](repeating: false, count: n)
            let tree = level.tree

            level.x.withUnsafeBufferPointer { x in
                level.y.withUnsafeBufferPointer { y in
                    level.id.withUnsafeBufferPointer { id in
                        level.count.withUnsafeBufferPointer { count in
                            taken.withUnsafeMutableBufferPointer { taken in
                                next.withUnsafeMutableBufferPointer { next in
                                    parent.withUnsafeMutableBufferPointer { parent in
                                        for i in 0..<n {
                                            if taken[i] { continue }
                                            taken[i] = true
                                            let px = x[i], py = y[i]
                                            neighbours.removeAll(keepingCapacity: true)
                                            tree.within(x: px, y: py, radius: r) { neighbours.append($0) }

                                            let ownCount = count[i]
                                            var total = Int(ownCount)
                                            for k in neighbours where !taken[Int(k)] { total += Int(count[Int(k)]) }

                                            let index = UInt32(truncatingIfNeeded: nx.count)
                                            if total > Int(ownCount) && total >= minPoints {
                                                var wx = px * Double(ownCount), wy = py * Double(ownCount)
                                                let clusterID = (i << 5) + idBase
                                                for k in neighbours {
                                                    let k = Int(k)
                                                    if taken[k] { continue }
                                                    taken[k] = true
                                                    let weight = Double(count[k])
                                                    wx += x[k] * weight
                                                    wy += y[k] * weight
                                                    parent[k] = clusterID
                                                    next[k] = index
                                                    if count[k] == 1 { unclusterZooms[id[k]] = UInt8(zoom + 1) }
                                                }
                                                parent[i] = clusterID
                                                next[i] = index
                                                if ownCount == 1 { unclusterZooms[id[i]] = UInt8(zoom + 1) }
                                                nx.append(wx / Double(total)); ny.append(wy / Double(total))
                                                nid.append(clusterID); ncount.append(UInt32(total))
                                            } else {
                                                next[i] = index
                                                nx.append(px); ny.append(py); nid.append(id[i]); ncount.append(ownCount)
                                                if total > 1 {
                                                    for k in neighbours {
                                                        let k = Int(k)
                                                        if taken[k] { continue }
                                                        taken[k] = true
                                                        next[k] = UInt32(truncatingIfNeeded: nx.count)
                                                        nx.append(x[k]); ny.append(y[k]); nid.append(id[k]); ncount.append(count[k])
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            level.parent = parent
            level.next = next
            return Self.level(x: nx, y: ny, id: nid, count: ncount, nodeSize: options.nodeSize)
        }
    }
}
