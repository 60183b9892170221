import Foundation
import Geo

extension MapFraming {
    /// ρ, the flight's curvature: MapLibre's `flyTo` default `curve`, the
    /// mean of the values chosen in van Wijk & Nuij's user study.
    public static let flightCurve = 1.42
    /// V, the flight's speed in screenfuls per second: MapLibre's `flyTo` default `speed`.
    public static let flightSpeed = 1.2

    /// How the map gets from `previous` to `next`: MapLibre's `flyTo`, the
    /// optimal zoom-and-pan path of van Wijk & Nuij 2003 ("Smooth and
    /// efficient zooming and panning").
    ///
    /// w0 = max(mapWidth, mapHeight), w1 = w0 / 2^(z1 − z0), u1 = the
    /// distance between the centres in points at z0 (x the shorter way
    /// round). A pure zoom (u1 < 1e-6) takes S = |ln(w1/w0)|/ρ; otherwise
    /// b_i = (w1² − w0² + (−1)^i ρ⁴ u1²)/(2 w_i ρ² u1), r_i = ln(√(b_i² + 1) − b_i),
    /// S = (r1 − r0)/ρ. The flight lasts 1000·S/V ms; longer than
    /// ``maxDurationMs`` it becomes a `jump`, as `flyTo`'s `maxDuration`.
    /// No previous camera (the first of a list), or the same camera: `none`.
    public func transition(from previous: MapViewpoint?, to next: MapViewpoint) -> CameraTransition {
        guard let previous else { return .none }
        let rho = Self.flightCurve, rho2 = rho * rho
        let z0 = previous.zoom, z1 = next.zoom
        let w0 = max(mapWidth, mapHeight)
        let w1 = w0 / pow(2, z1 - z0)

        let mercator = mercator
        let from = mercator.point(previous.center, atZoom: z0), to = mercator.point(next.center, atZoom: z0)
        let dx = WebMercator.shortestDelta(to.x - from.x, worldSize: mercator.worldSize(atZoom: z0))
        let u1 = (dx * dx + (to.y - from.y) * (to.y - from.y)).squareRoot()

        if u1 < 1e-6, z1 == z0 { return .none }
        var s = Double.nan
        if u1 >= 1e-6 {
            // ln(√(b² + 1) − b) is −asinh(b), written so to keep its digits
            // when b is large (the difference of two near-equal roots).
            func r(_ i: Int) -> Double {
                let wi = i == 0 ? w0 : w1
                let sign = i == 0 ? 1.0 : -1.0
                let b = (w1 * w1 - w0 * w0 + sign * rho2 * rho2 * u1 * u1) / (2 * wi * rho2 * u1)
                return -asinh(b)
            }
            s = (r(1) - r(0)) / rho
        }
        // A pure zoom, or a path too short for the formula's digits (MapLibre falls back the same way).
        if !s.isFinite { s = abs(log(w1 / w0)) / rho }

        let durationMs = 1000 * s / Self.flightSpeed
        return durationMs > maxDurationMs ? .jump : CameraTransition(kind: .fly, durationMs: durationMs)
    }
}
