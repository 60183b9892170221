/// The ranks of a list's stores after a write, given the ranks they had
/// (nil: new to the list).
///
/// The stores that keep their rank are a longest strictly increasing
/// subsequence of the old ranks in the new order (patience sorting,
/// O(n log n)): the most stores whose relative order did not change.
/// Every other store is ranked evenly between its kept neighbours (before
/// the first kept one, after the last, or from scratch). When two kept
/// neighbours leave no room, every store is ranked afresh: a change per
/// store, once per about 20 insertions at one place (``ChangeLog/spacing``
/// is 2^20), rather than a rank of unbounded length as fractional indexes
/// of strings have.
package enum RankAssignment {
    package static func ranks(keeping old: [Int64?], spacing: Int64) -> [Int64] {
        let kept = longestIncreasing(old)
        var ranks = [Int64](repeating: 0, count: old.count)
        var start = 0  // first index of the pending run of unkept stores
        var previous: Int64? = nil
        for index in 0...old.count {
            let isKept = index < old.count && kept[index]
            guard isKept || index == old.count else { continue }
            let next = index < old.count ? old[index]! : nil
            if !fill(&ranks, start..<index, after: previous, before: next, spacing: spacing) {
                return fresh(old.count, spacing: spacing)
            }
            if index < old.count {
                ranks[index] = next!
                previous = next
            }
            start = index + 1
        }
        return ranks
    }

    /// Ranks from scratch: spacing, 2 × spacing, … (nil when they would
    /// overflow, which no list of fewer than 2^43 stores does).
    static func fresh(_ count: Int, spacing: Int64) -> [Int64] {
        (0..<count).map { (Int64($0) + 1) * spacing }
    }

    /// The ranks' bound: every rank is in -2^62...2^62.
    static let bound: Int64 = 1 << 62

    /// Ranks `run` strictly between `low` and `high` (either may be
    /// open); false when there is no room.
    private static func fill(_ ranks: inout [Int64], _ run: Range<Int>, after low: Int64?, before high: Int64?, spacing: Int64) -> Bool {
        guard !run.isEmpty else { return true }
        let count = Int64(run.count)
        switch (low, high) {
        case (nil, nil):
            for (offset, index) in run.enumerated() { ranks[index] = (Int64(offset) + 1) * spacing }
        case (let low?, nil):
            // Ranks stay within ±2^62, so no difference of two overflows.
            guard low < bound, (bound - low) / spacing > count else { return false }
            for (offset, index) in run.enumerated() { ranks[index] = low + (Int64(offset) + 1) * spacing }
        case (nil, let high?):
            guard high > -bound, (high + bound) / spacing > count else { return false }
            for (offset, index) in run.enumerated() { ranks[index] = high - (count - Int64(offset)) * spacing }
        case (let low?, let high?):
            let (gap, overflow) = high.subtractingReportingOverflow(low)
            guard !overflow else { return false }
            let step = gap / (count + 1)
            guard step >= 1 else { return false }
            for (offset, index) in run.enumerated() { ranks[index] = low + (Int64(offset) + 1) * step }
        }
        return true
    }

    /// Which entries are in a longest strictly increasing subsequence of
    /// the non-nil values.
    static func longestIncreasing(_ values: [Int64?]) -> [Bool] {
        var tails: [Int] = []  // index of the smallest tail of each length
        var parent = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]]! < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { parent[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var kept = [Bool](repeating: false, count: values.count)
        var index = tails.last ?? -1
        while index >= 0 {
            kept[index] = true
            index = parent[index]
        }
        return kept
    }
}
