/// The item bookkeeping of an infinite carousel (the infinite-banner article's technique): `k` copies at
/// each end of the `n` data items, and the silent jumps between twins.
///
/// Item `j` of the `n + 2k` laid-out items shows data index `(j − k) mod n`;
/// the carousel starts on item `k`. Passing `rest(n + k)` jumps back by
/// `n · page`, going below `rest(k − 1)` jumps forward by `n · page`: both
/// land on a twin showing the same data, so the focused data index never
/// changes across a jump.
public struct LoopGeometry: Hashable, Sendable {
    /// The number of data items `n` (at least 1).
    public let dataCount: Int
    /// The copies `k` at each end (at least 1).
    public let padding: Int

    /// The number of laid-out items, `n + 2k`.
    public var itemCount: Int { dataCount + 2 * padding }

    /// The item showing data index `0` when the carousel starts, `k`.
    public var firstDataItem: Int { padding }

    /// The data index shown by item `item`: `(item − k) mod n`, never negative.
    public func dataIndex(ofItem item: Int) -> Int {
        let shifted = (item - padding) % dataCount
        return shifted < 0 ? shifted + dataCount : shifted
    }

    /// The offset change that brings `offset` back inside the band
    /// `[rest(k − 1), rest(n + k)]`, or nil when it is inside.
    ///
    /// Usually one period `n · page`; an offset reported from far outside (a
    /// raw report, a huge drag) takes as many whole periods as it needs, which
    /// is still a jump between twins.
    func jump(for offset: Double, page: Double) -> Double? {
        let period = Double(dataCount) * page
        let upper = Double(dataCount + padding) * page
        let lower = Double(padding - 1) * page
        if offset > upper {
            return -period * ((offset - upper) / period).rounded(.up)
        }
        if offset < lower {
            return period * ((lower - offset) / period).rounded(.up)
        }
        return nil
    }

    /// The item showing `dataIndex` whose rest is nearest `offset`; ties go to
    /// the earlier item. Used to scroll to a data index the short way round.
    func nearestItem(showing dataIndex: Int, to offset: Double, page: Double) -> Int {
        // The twins are `first + m·n` for m in 0...last: pick m from the
        // offset in O(1) (k may be up to 10¹², so trying each twin could
        // take hours), then let its neighbours compete for the rounding.
        let first = (dataIndex + padding) % dataCount
        let last = (itemCount - 1 - first) / dataCount
        let guess = ((offset / page - Double(first)) / Double(dataCount)).rounded()
        let m = Int(Swift.min(Swift.max(guess, 0), Double(last)))
        var best = first + m * dataCount
        for candidate in [m - 1, m + 1] where (0...last).contains(candidate) {
            let item = first + candidate * dataCount
            let distance = abs(Double(item) * page - offset), bestDistance = abs(Double(best) * page - offset)
            if distance < bestDistance || (distance == bestDistance && item < best) { best = item }
        }
        return best
    }
}
