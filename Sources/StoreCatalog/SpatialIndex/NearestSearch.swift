import GRDB

/// Exact k-nearest search over the spatial index: scan the box around a
/// circle, keep what lies inside the circle, widen the circle until it holds
/// `limit` stores (or reaches `maxRadius`).
///
/// Exact, not approximate: every store within radius r of the origin lies in
/// the circle's bounding box, so once the circle holds k stores, no store
/// outside it can be nearer than the k-th.
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

    /// The nearest stores' keys and distances, nearest first (ties by key).
    package func run(_ db: Database) throws -> [(store: Int64, distance: Double)] {
        guard limit > 0 else { return [] }
        let meter = DistanceFrom(origin)
        var radius = min(Self.initialRadius, maxRadius)
        var found: [(store: Int64, distance: Double)] = []
        while true {
            found.removeAll(keepingCapacity: true)
            try SpatialIndex.scan(SearchRegion(around: origin, radiusMeters: radius), list: list, db) {
                store, latitude, longitude in
                let distance = meter.meters(toLatitude: latitude, longitude: longitude)
                if distance <= radius { found.append((store, distance)) }
            }
            if found.count >= limit || radius >= maxRadius { break }
            radius = min(maxRadius, radius * Self.growth(found: found.count, wanted: limit))
        }
        found.sort { ($0.distance, $0.store) < ($1.distance, $1.store) }
        return Array(found.prefix(limit))
    }
}
