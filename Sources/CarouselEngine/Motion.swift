/// The carousel moving on its own after a release or a programmatic scroll:
/// a curve from one offset to another over time.
///
/// Times are in ms on the caller's clock; ``offset(at:)`` is a pure function
/// of time, so a simulator can sample it at any rate.
public struct Motion: Hashable, Sendable {
    /// How the motion travels.
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
        /// Exponential deceleration toward the target, like a fling.
        case decelerate
        /// Ease-in-out animation over a fixed duration, like
        /// `setContentOffset(_:animated: true)`.
        case animate
    }

    /// How the motion travels.
    public let kind: Kind
    /// The offset it started from.
    public private(set) var from: Double
    /// The offset it ends at, exactly.
    public private(set) var to: Double
    /// When it started.
    public let startTime: Double
    /// When it reaches ``to``: for a deceleration the instant it is within
    /// 0.5 pt, for an animation the end of its duration.
    public let endTime: Double
    /// `d` per ms for a deceleration; the duration in ms for an animation.
    private let parameter: Double

    /// A fling from `from` settling on `to` at `rate` per ms:
    /// `offset(t) = x + (T − x)(1 − dᵗ)`, finished once within 0.5 pt, i.e.
    /// after `ln(0.5 / |T − x|) / ln d` ms.
    public static func decelerate(from: Double, to: Double, rate: Deceleration, at startTime: Double) -> Motion {
        let distance = abs(to - from)
        let duration = distance > 0.5 ? naturalLog(0.5 / distance) / naturalLog(rate.rate) : 0
        return Motion(
            kind: .decelerate, from: from, to: to, startTime: startTime,
            endTime: startTime + duration, parameter: rate.rate)
    }

    /// An ease-in-out animation from `from` to `to` over `duration` ms (none
    /// when there is nowhere to go).
    public static func animate(from: Double, to: Double, duration: Double, at startTime: Double) -> Motion {
        let duration = from == to ? 0 : duration
        return Motion(
            kind: .animate, from: from, to: to, startTime: startTime,
            endTime: startTime + duration, parameter: duration)
    }

    private init(kind: Kind, from: Double, to: Double, startTime: Double, endTime: Double, parameter: Double) {
        self.kind = kind
        self.from = from
        self.to = to
        self.startTime = startTime
        self.endTime = endTime
        self.parameter = parameter
    }

    /// The offset at time `t`: ``from`` until the start, ``to`` exactly from
    /// ``endTime`` on.
    public func offset(at t: Double) -> Double {
        guard t < endTime else { return to }
        guard t > startTime else { return from }
        let elapsed = t - startTime
        switch kind {
        case .decelerate:
            return from + (to - from) * (1 - power(parameter, elapsed))
        case .animate:
            return from + (to - from) * Self.easeInOut(elapsed / parameter)
        }
    }

    /// Whether the motion has reached its target at time `t`.
    public func isFinished(at t: Double) -> Bool { t >= endTime }

    /// The same motion moved by `delta`: a loop jump carries a motion in
    /// flight with it (the infinite-banner jump), origin and target alike.
    mutating func shift(by delta: Double) {
        from += delta
        to += delta
    }

    /// The same motion seen in a mirror: from `m − from` to `m − to`, same
    /// times. Both curves are affine in the offsets, so the mirrored motion's
    /// offset at any time is `m −` this one's: a right-to-left carousel's
    /// motion is its left-to-right twin's, reflected.
    func reflected(about m: Double) -> Motion {
        Motion(kind: kind, from: m - from, to: m - to, startTime: startTime, endTime: endTime, parameter: parameter)
    }

    /// Core Animation's ease-in-out timing curve, the cubic Bézier with
    /// control points (0.42, 0) and (0.58, 1) (`CAMediaTimingFunctionName.easeInEaseOut`),
    /// at time fraction `x` in [0, 1].
    ///
    /// The curve is parametric: find `u` with `bx(u) = x` by bisection (`bx`
    /// is increasing; 40 halvings reach 1e-12), then return `by(u)`, which
    /// for these control points is `3u² − 2u³`.
    static func easeInOut(_ x: Double) -> Double {
        func bx(_ u: Double) -> Double {
            let v = 1 - u
            return 3 * v * v * u * 0.42 + 3 * v * u * u * 0.58 + u * u * u
        }
        var low = 0.0, high = 1.0
        for _ in 0..<40 {
            let mid = (low + high) / 2
            if bx(mid) < x { low = mid } else { high = mid }
        }
        let u = (low + high) / 2
        return u * u * (3 - 2 * u)
    }
}
