/// A set of measurements, sorted once, summarised by median and percentiles.
struct Samples {
    /// The measurements, ascending.
    let sorted: [Double]

    init(_ values: [Double]) {
        precondition(!values.isEmpty, "Samples: no measurement to summarise")
        sorted = values.sorted()
    }

    var count: Int { sorted.count }

    /// The middle value (the mean of the two middle ones for an even count).
    var median: Double {
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// The 99th percentile.
    var p99: Double { percentile(99) }

    /// The `p`-th percentile by nearest rank: the smallest value with at
    /// least `p`% of the measurements at or below it (no interpolation, so
    /// it is always a value that was measured).
    func percentile(_ p: Double) -> Double {
        precondition((0...100).contains(p), "percentile \(p) is not in 0...100")
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[max(rank - 1, 0)]
    }
}
