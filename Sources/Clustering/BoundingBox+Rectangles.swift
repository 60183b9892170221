import Geo

/// A projected rectangle of the unit square: minX…maxX × minY…maxY (y grows
/// southwards), what the cluster levels' KD-trees search.
package struct UnitRectangle: Sendable, Hashable {
    package var minX, minY, maxX, maxY: Double

    @inline(__always)
    package func contains(x: Double, y: Double) -> Bool {
        x >= minX && x <= maxX && y >= minY && y <= maxY
    }
}

extension BoundingBox {
    /// The projected rectangles to search, in the order their results come,
    /// as supercluster's `getClusters` reads its bbox: a box across the
    /// antimeridian is queried as its eastern half, then its western half.
    package var unitRectangles: [UnitRectangle] {
        // supercluster wraps both longitudes into −180…180 (an east edge of
        // exactly 180 stays 180): a west edge of 180 is −180.
        let west = self.west == 180 ? -180 : self.west
        let halves: [(west: Double, east: Double)] = west > east ? [(west, 180), (-180, east)] : [(west, east)]
        return halves.map { half in
            UnitRectangle(
                minX: WebMercator.unitX(longitude: half.west), minY: WebMercator.unitY(latitude: north),
                maxX: WebMercator.unitX(longitude: half.east), maxY: WebMercator.unitY(latitude: south))
        }
    }
}
