/// A date on the proleptic Gregorian calendar, without a time zone: the
/// local day an instant falls on.
///
/// Conversions follow Howard Hinnant's "chrono-Compatible Low-Level Date
/// Algorithms" (days_from_civil / civil_from_days), exact for every date an
/// `Int64` count of days can name here.
struct CivilDate: Hashable, Sendable {
    var year: Int64
    var month: Int
    var day: Int

    init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (negative: before it).
    init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March is 0
        day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    var previousDay: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch - 1) }

    /// 1970-01-01 was a Thursday.
    var weekday: Weekday {
        let monday0 = ((daysSinceEpoch % 7) + 7 + 3) % 7
        return Weekday(rawValue: Int(monday0))!
    }

    /// The days of `month` in a leap year: the most a month-day selector
    /// may name (`Feb 29` is valid, `Apr 31` is not).
    static func maximumDays(inMonth month: Int) -> Int {
        [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }
}
