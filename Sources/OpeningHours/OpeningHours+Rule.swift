extension OpeningHours {
    /// One rule: the days it selects, its spans on them, and how it combines
    /// with the rules before it.
    struct Rule: Hashable, Sendable {
        var days: DaySelector
        /// Minutes from the start of a selected day; ends may pass midnight
        /// (up to 48:00). Nil: the whole day.
        var times: [MinuteSpan]?
        /// `off` and `closed` rules are not open.
        var isOpen: Bool
        /// Written after a `,` between rules: adds to the day instead of
        /// replacing it.
        var isAdditional: Bool

        func selects(_ date: CivilDate) -> Bool { days.selects(date) }

        /// The rule's spans on its own day, cut at midnight.
        var spansWithinDay: [MinuteSpan] {
            guard let times else { return [MinuteSpan.wholeDay] }
            return times.compactMap { $0.clamped(to: MinuteSpan.wholeDay) }
        }

        /// What an open rule's spans give the next day, in that day's minutes.
        var spansPastMidnight: [MinuteSpan] {
            guard isOpen, let times else { return [] }
            return times.compactMap { span in
                span.end > MinuteSpan.minutesPerDay
                    ? MinuteSpan(
                        start: max(span.start, MinuteSpan.minutesPerDay) - MinuteSpan.minutesPerDay,
                        end: span.end - MinuteSpan.minutesPerDay)
                    : nil
            }
        }
    }

    /// The days a rule selects: month-day ranges and weekdays, both when
    /// given (a missing selector selects every day).
    struct DaySelector: Hashable, Sendable {
        /// Nil: any date.
        var monthDays: [MonthDayRange]?
        /// Nil: any weekday. `PH` alone gives an empty set: no calendar of
        /// public holidays is known, so it selects no day.
        var weekdays: Set<Weekday>?

        static let everyDay = DaySelector(monthDays: nil, weekdays: nil)

        func selects(_ date: CivilDate) -> Bool {
            if let monthDays, !monthDays.contains(where: { $0.contains(date) }) { return false }
            if let weekdays, !weekdays.contains(date.weekday) { return false }
            return true
        }
    }

    /// `Dec 24-Jan 02`: from one month and day to another, both included,
    /// wrapping past the year's end when the first comes later.
    struct MonthDayRange: Hashable, Sendable {
        var from: MonthDay
        var to: MonthDay

        func contains(_ date: CivilDate) -> Bool {
            let day = MonthDay(month: date.month, day: date.day)
            return from <= to ? (from <= day && day <= to) : (day >= from || day <= to)
        }
    }

    struct MonthDay: Hashable, Sendable, Comparable {
        var month: Int
        var day: Int

        static func < (a: MonthDay, b: MonthDay) -> Bool { (a.month, a.day) < (b.month, b.day) }
    }
}

/// A span of minutes `start..<end` counted from a day's midnight.
struct MinuteSpan: Hashable, Sendable {
    static let minutesPerDay = 1_440
    static let wholeDay = MinuteSpan(start: 0, end: minutesPerDay)

    var start: Int
    var end: Int

    func contains(_ minute: Int) -> Bool { start <= minute && minute < end }

    func clamped(to other: MinuteSpan) -> MinuteSpan? {
        let span = MinuteSpan(start: max(start, other.start), end: min(end, other.end))
        return span.start < span.end ? span : nil
    }

    /// What is left of this span once each of `others` is taken out.
    func subtracting(_ others: [MinuteSpan]) -> [MinuteSpan] {
        others.reduce([self]) { pieces, cut in
            pieces.flatMap { piece -> [MinuteSpan] in
                guard cut.start < piece.end, piece.start < cut.end else { return [piece] }
                return [MinuteSpan(start: piece.start, end: cut.start), MinuteSpan(start: cut.end, end: piece.end)]
                    .filter { $0.start < $0.end }
            }
        }
    }
}

/// Monday first, as `opening_hours` lists them.
enum Weekday: Int, Hashable, Sendable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The two letters `opening_hours` spells them with.
    static let abbreviations = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
}
