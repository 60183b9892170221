import GRDB
import Geo

/// Exact k-nearest search over the spatial index: scan the box around a
/// circle, keep what lies inside the circle, widen the circle until it holds
/// `limit` stores (or reaches `maxRadius`).
///
/// Exact, not approximate: every store within radius r of the origin lies in
/// the circle's bounding box, so once the circle holds k stores, no store
/// outside it can be nearer than the k-th.
///
/// Where the stores are sparse, a search costs index seeks, one per latitude
/// band of the box (0.9 µs each), more than the few rows it reads. So once
/// the circle spans several bands, each band is read over a box
/// ``overscan`` times the circle's, and kept: a band is read again only when
/// the circle outgrows what it was read for, and widening the circle mostly
/// costs the new bands at its edges. The stores found beyond the circle also
/// bound the answer: once k stores are known at all, the circle through the
/// k-th of them holds k stores, so the next circle need be no larger.
/// Seoul's nearest 10 among the 234,908 GeoNames places took 67 seeks over
/// 9 circles with every band read again per circle, 40 this way (77.7 →
/// 67.1 µs, with the prepared scan); over 3,000 random points the median is
/// unchanged and the slowest tenth 9 % faster. Where stores are dense the
/// circle stays within a band or two, rows are the cost, and nothing is
/// overscanned (at 42 times the density, the 10⁷-store list's, overscanning
/// there made the median 6 % slower).
package struct NearestSearch {
    package var origin: Coordinate
    package var limit: Int
    /// The search never looks farther (the `within` radius, else the whole
    /// globe).
    package var maxRadius: Double
    package var list: Int64?

    /// The first circle: a few city blocks. Sparse regions widen quickly
    /// (×4 while the circle is empty, see ``growth(found:wanted:)``), and
    /// small circles are cheap to scan, so the rescans add up to a fraction
    /// of the last one.
    ///
    /// It was 10 km, "a town": right for the 234,908 GeoNames places, but the
    /// circle is only ever widened, and in a city centre of a 10⁷-store list
    /// 10 km holds a hundred thousand stores, every one read and measured
    /// for ten answers (329 ms a query; BENCHMARKS.md, scale).
    ///
    /// Then 250 m, until the index's bands went from ¼° to 1/64° (0004):
    /// with scans that cheap, 100 m costs the sparse 234,908 places nothing
    /// and spares a city centre of the 10⁷-store list reading hundreds of
    /// stores for ten.
    static let initialRadius = 100.0

    /// How much wider than a circle of several bands a band is read: its
    /// box has this many times the circle's radius. Twice: the rows of four
    /// times the area cost less than the seeks they spare (simulated on the
    /// GeoNames places: 1.5 and 3 did no better).
    static let overscan = 2.0

    /// How much to widen a circle holding `found` of the `wanted` stores:
    /// as if stores were spread evenly (the area, so the count, grows with
    /// r²), with a margin; at least ×1.25 so the search always progresses,
    /// at most ×2 so that a dense region just past the circle is not swept
    /// whole, and ×4 while the circle is empty. (Measured on the 234,908
    /// places: these bounds beat a plain ×2 and a ×4 cap.)
    static func growth(found: Int, wanted: Int) -> Double {
        guard found > 0 else { return 4 }
        return min(2, max(1.25, 1.1 * (Double(wanted) / Double(found)).squareRoot()))
    }

    /// One latitude band as read: the radius whose overscanned box it was
    /// read over (boxes of one origin nest, so it covers any circle up to
    /// that radius), and the stores in that box with their distances.
    private struct BandRead {
        var reach: Double
        var stores: [(store: Int64, distance: Double)]
    }

    /// The nearest stores' keys and distances, nearest first (ties by key).
    package func run(_ db: Database) throws -> [(store: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        let meter = DistanceFrom(origin)
        let scanner = try SpatialIndex.Scanner(list: list, db)
        var radius = min(Self.initialRadius, maxRadius)
        // The bands read so far, from `first` on: the circle's bands only
        // grow, and always hold the origin's. (An array, not a dictionary:
        // hashing a band per read cost more than the seeks it saved.)
        var first = SpatialIndex.band(latitude: origin.latitude)
        var bands: [BandRead?] = []
        while true {
            let circle = SearchRegion(around: origin, radiusMeters: radius)
            let south = SpatialIndex.band(latitude: circle.south), north = SpatialIndex.band(latitude: circle.north)
            if south < first {
                bands.insert(contentsOf: repeatElement(nil, count: Int(first - south)), at: 0)
                first = south
            }
            if north - first >= bands.count {
                bands.append(contentsOf: repeatElement(nil, count: Int(north - first) + 1 - bands.count))
            }
            // Widening costs seeks only once the circle spans several bands;
            // within one or two, rows are the cost, and are not overscanned.
            let overscan = radius < SpatialIndex.bandHeightMeters ? 1 : Self.overscan
            for band in south...north {
                let slot = Int(band - first)
                if let read = bands[slot], read.reach >= radius { continue }
                var read = BandRead(reach: radius * overscan, stores: [])
                try scanner.scan(band: band, of: SearchRegion(around: origin, radiusMeters: read.reach)) {
                    store, latitude, longitude in
                    read.stores.append((store, meter.meters(toLatitude: latitude, longitude: longitude)))
                }
                bands[slot] = read
            }
            var inside = 0, known = 0
            for case let read? in bands {
                known += read.stores.count
                for found in read.stores where found.distance <= radius { inside += 1 }
            }
            if inside >= limit || radius >= maxRadius { break }
            if known >= limit {
                // k stores known: the circle through the k-th holds k stores.
                var distances: [Double] = []
                distances.reserveCapacity(known)
                for case let read? in bands { for found in read.stores { distances.append(found.distance) } }
                distances.sort()
                radius = min(maxRadius, distances[limit - 1])
            } else {
                radius = min(maxRadius, radius * Self.growth(found: inside, wanted: limit))
            }
        }
        var found: [(store: Int64, distance: Double)] = []
        for case let read? in bands { for candidate in read.stores where candidate.distance <= radius { found.append(candidate) } }
        found.keepNearest(limit) { ($0.distance, $0.store) }
        return found
    }
}

extension Array {
    /// Keeps the first `limit` elements in the order of every nearest
    /// answer: by distance, ties by the store's key (its import order). The
    /// SQLite search, the full scan and ``NearestSnapshot`` all end here,
    /// so they answer alike, ties included.
    mutating func keepNearest<Key: Comparable>(_ limit: Int, by rank: (Element) -> (distance: Double, key: Key)) {
        sort { rank($0) < rank($1) }
        if count > limit { removeLast(count - limit) }
    }
}
