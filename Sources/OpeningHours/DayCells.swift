/// An expression's rules laid on cells of the day, worked out once when the
/// expression is read.
///
/// The day is cut at midnight and at every minute where a rule's span
/// starts or ends, on its own day or past midnight on the next. Whatever
/// the date, each cell is then wholly inside or wholly outside any span, so
/// a day's schedule is a set of cells: a bit mask. A rule contributes two
/// masks, its spans on a day it selects and the part of them past midnight
/// on the day after, and the reference's reading of a day (see
/// ``OpeningHours/isOpen(on:minute:)``: ranges replaced, merged, cut out
/// and asked whether any is open) becomes a few bitwise operations on
/// words. No allocation: the masks live here, the day's schedule on the
/// stack.
struct DayCells: Hashable, Sendable {
    /// The minute each cell starts at, ascending; the first is 0.
    let starts: [Int]
    /// The words of one mask: one for up to 64 cells (63 different times
    /// in the expression), which is nearly every expression.
    let wordCount: Int
    /// Two masks a rule, `wordCount` words each, in rule order: the
    /// rule's cells on a day it selects, then on the day after one.
    let masks: [UInt64]

    init(rules: [OpeningHours.Rule]) {
        var cuts: Set<Int> = [0]
        for rule in rules {
            for span in rule.spansWithinDay + rule.spansPastMidnight {
                cuts.insert(span.start)
                if span.end < MinuteSpan.minutesPerDay { cuts.insert(span.end) }
            }
        }
        starts = cuts.sorted()
        wordCount = (starts.count + 63) / 64
        var masks = [UInt64](repeating: 0, count: 2 * rules.count * wordCount)
        for (index, rule) in rules.enumerated() {
            for (part, spans) in [rule.spansWithinDay, rule.spansPastMidnight].enumerated() {
                let base = (2 * index + part) * wordCount
                for span in spans {
                    // Both ends are cuts: the span is whole cells.
                    let end = span.end < MinuteSpan.minutesPerDay ? Self.cell(containing: span.end, in: starts) : starts.count
                    for cell in Self.cell(containing: span.start, in: starts)..<end {
                        masks[base + (cell >> 6)] |= 1 << UInt64(cell & 63)
                    }
                }
            }
        }
        self.masks = masks
    }

    /// The cell holding `minute` (0..<1440): the last that starts at or
    /// before it.
    func cell(containing minute: Int) -> Int {
        Self.cell(containing: minute, in: starts)
    }

    private static func cell(containing minute: Int, in starts: [Int]) -> Int {
        var low = 0, high = starts.count  // starts[low] <= minute < starts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if starts[middle] <= minute { low = middle } else { high = middle }
        }
        return low
    }
}
