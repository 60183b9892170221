/// The side of one map tile at zoom 0, in points: it fixes what a zoom level
/// means. 256 for Google, Apple and Naver zoom levels; 512 for
/// Mapbox/MapLibre, whose zoom z shows what the others show at z + 1.
public enum TileSize: Int, CaseIterable, Hashable, Sendable {
    case t256 = 256
    case t512 = 512

    /// The tile side as a number of points.
    public var points: Double { Double(rawValue) }
}
