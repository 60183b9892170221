import Foundation

/// The Web Mercator of the whole world at zoom 0, x and y in 0…1, as
/// supercluster projects points (its `lngX`, `latY`, `xLng`, `yLat`).
///
/// y is clamped to 0…1 rather than the latitude to ±85.0511°: the same
/// thing for every latitude that projects inside the square.
public enum SphericalMercator {
    /// x = lng / 360 + 0.5.
    public static func x(longitude: Double) -> Double {
        longitude / 360 + 0.5
    }

    /// y = 0.5 − ln((1 + sin φ) / (1 − sin φ)) / (4π), clamped to 0…1.
    public static func y(latitude: Double) -> Double {
        let sine = sin(latitude * Double.pi / 180)
        let y = 0.5 - 0.25 * log((1 + sine) / (1 - sine)) / Double.pi
        return y < 0 ? 0 : y > 1 ? 1 : y
    }

    /// The longitude of x: (x − 0.5) · 360.
    public static func longitude(x: Double) -> Double {
        (x - 0.5) * 360
    }

    /// The latitude of y: 360 · atan(exp((180 − 360 y) · π/180)) / π − 90.
    public static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * Double.pi / 180
        return 360 * atan(exp(y2)) / Double.pi - 90
    }

    /// A point as supercluster stores it: projected, then rounded to a
    /// 32-bit float (`Math.fround`), which decides which points fall within
    /// a radius of each other.
    public static func rounded(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        (Double(Float(x(longitude: longitude))), Double(Float(y(latitude: latitude))))
    }
}
