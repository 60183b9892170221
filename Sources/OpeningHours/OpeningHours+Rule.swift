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

        /// The rule's spans on its own day, cut at midnight.
        var spansWithinDay: [MinuteSpan] {
            guard let times else { return [MinuteSpan.wholeDay] }
            return times.compactMap { $0.clamped(to: MinuteSpan.wholeDay) }
        }

        /// What the rule's spans give the next day, in that day's minutes:
        /// the part of each span past midnight, open or closed as the rule is.
        var spansPastMidnight: [MinuteSpan] {
            guard let times else { return [] }
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
        /// Every weekday unless a selector names some. `PH` alone gives an
        /// empty set: no calendar of public holidays is known, so it selects
        /// no day.
        var weekdays: WeekdaySet = .all

        static let everyDay = DaySelector(monthDays: nil)

        func selects(_ day: Day) -> Bool {
            guard weekdays.contains(day.weekday) else { return false }
            guard let monthDays else { return true }
            return monthDays.contains { $0.contains(day.monthDay) }
        }
    }

    /// What the day selectors look at on a date, worked out once per
    /// question rather than once per rule.
    struct Day {
        var monthDay: MonthDay
        var weekday: Weekday

        init(_ date: CivilDate) {
            monthDay = MonthDay(month: date.month, day: date.day)
            weekday = date.weekday
        }
    }

    /// `Dec 24-Jan 02`: from one month and day to another, both included,
    /// wrapping past the year's end when the first comes later.
    struct MonthDayRange: Hashable, Sendable {
        var from: MonthDay
        var to: MonthDay

        func contains(_ day: MonthDay) -> Bool {
            from <= to ? (from <= day && day <= to) : (day >= from || day <= to)
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

    func clamped(to other: MinuteSpan) -> MinuteSpan? {
        let span = MinuteSpan(start: max(start, other.start), end: min(end, other.end))
        return span.start < span.end ? span : nil
    }
}

/// Monday first, as `opening_hours` lists them.
enum Weekday: Int, Hashable, Sendable, CaseIterable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// The two letters `opening_hours` spells them with.
    static let abbreviations = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
}

/// A set of weekdays as seven bits, Monday the lowest.
struct WeekdaySet: Hashable, Sendable {
    var bits: UInt8

    static let all = WeekdaySet(bits: 0x7F)
    static let none = WeekdaySet(bits: 0)

    func contains(_ day: Weekday) -> Bool { bits & (1 << day.rawValue) != 0 }
    mutating func insert(_ day: Weekday) { bits |= 1 << day.rawValue }
}
