/// Reads an `opening_hours` expression into rules, by recursive descent
/// over its characters (the grammar is small and regular; see
/// ``OpeningHours`` for the subset).
struct OpeningHoursParser {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    /// Longer than any real expression (the longest in OpenStreetMap's data
    /// are a few hundred characters); bounds the work a bad value can cause.
    static let maximumLength = 2_048

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    mutating func parse() throws(OpeningHoursError) -> [OpeningHours.Rule] {
        guard scalars.count <= Self.maximumLength else {
            throw OpeningHoursError(column: Self.maximumLength + 1, reason: "longer than \(Self.maximumLength) characters")
        }
        skipSpaces()
        guard !atEnd else { throw error("empty opening hours") }
        var rules = [try rule(isAdditional: false)]
        while true {
            skipSpaces()
            guard let next = peek else { return rules }
            switch next {
            case ";":
                position += 1
                skipSpaces()
                guard !atEnd else { throw error("nothing after ';'") }
                rules.append(try rule(isAdditional: false))
            case ",":
                position += 1
                skipSpaces()
                guard !atEnd else { throw error("nothing after ','") }
                rules.append(try rule(isAdditional: true))
            case "|":
                throw error("'||' fallback rules are not supported")
            default:
                throw error("expected ';' between rules, found '\(next)'")
            }
        }
    }

    // MARK: Rules

    private mutating func rule(isAdditional: Bool) throws(OpeningHoursError) -> OpeningHours.Rule {
        let start = position
        var days = OpeningHours.DaySelector.everyDay
        var times: [MinuteSpan]?
        // `24/7` is the whole of a rule's selectors; `off` may follow it.
        if take("24/7") {
            skipSpaces()
        } else {
            try selectors(days: &days, times: &times)
        }
        var isOpen = true
        if let word = peekWord, ["off", "closed", "open"].contains(word) {
            position += word.unicodeScalars.count
            isOpen = word == "open"
        }
        guard position > start else {
            throw error(peekWord.map { "unknown word '\($0)'" } ?? "expected days, times, 'off' or '24/7'")
        }
        return OpeningHours.Rule(days: days, times: times, isOpen: isOpen, isAdditional: isAdditional)
    }

    /// Month days, weekdays and times, each if present.
    private mutating func selectors(days: inout OpeningHours.DaySelector, times: inout [MinuteSpan]?) throws(OpeningHoursError) {
        if peekWord.flatMap(Self.month) != nil {
            days.monthDays = try monthDayRanges()
            skipSpaces()
        }
        if let word = peekWord, word == "PH" || Weekday.abbreviations.contains(word) {
            days.weekdays = try weekdays()
            skipSpaces()
        }
        if let next = peek, next.properties.numericType != nil, next.isASCII {
            times = try timeSpans()
            skipSpaces()
        }
    }

    // MARK: Weekdays

    /// `Mo-Fr`, `Mo,We,Fr`, `Fr-Mo`, `Mo-Fr,PH`. `PH` adds no day.
    private mutating func weekdays() throws(OpeningHoursError) -> WeekdaySet {
        var days = WeekdaySet.none
        repeat {
            let (first, isHoliday) = try weekday()
            if isHoliday { continue }
            guard take("-") else {
                days.insert(first!)
                continue
            }
            let (last, lastIsHoliday) = try weekday()
            guard !lastIsHoliday, let first, let last else { throw error("'PH' cannot end a range of weekdays") }
            var day = first.rawValue
            while true {
                days.insert(Weekday(rawValue: day)!)
                if day == last.rawValue { break }
                day = (day + 1) % 7  // `Fr-Mo` wraps past Sunday
            }
        } while takeListComma(before: { $0 == "PH" || Weekday.abbreviations.contains($0) })
        return days
    }

    private mutating func weekday() throws(OpeningHoursError) -> (Weekday?, isHoliday: Bool) {
        guard let word = peekWord else { throw error("expected a weekday (Mo, Tu, We, Th, Fr, Sa, Su or PH)") }
        position += word.unicodeScalars.count
        if word == "PH" { return (nil, true) }
        guard let index = Weekday.abbreviations.firstIndex(of: word) else {
            position -= word.unicodeScalars.count
            throw error("unknown weekday '\(word)' (Mo, Tu, We, Th, Fr, Sa, Su or PH)")
        }
        return (Weekday(rawValue: index)!, false)
    }

    // MARK: Month days

    /// `Dec 25`, `Dec 24-26`, `Dec 24-Jan 02`, `Dec`, `Jan-Mar`, as a list.
    private mutating func monthDayRanges() throws(OpeningHoursError) -> [OpeningHours.MonthDayRange] {
        var ranges: [OpeningHours.MonthDayRange] = []
        repeat {
            let month = try monthName()
            let day = try optionalDay(of: month)
            let from = OpeningHours.MonthDay(month: month, day: day ?? 1)
            var to = OpeningHours.MonthDay(month: month, day: day ?? CivilDate.maximumDays(inMonth: month))
            if take("-") {
                if let next = peek, next.properties.numericType != nil, next.isASCII {
                    guard day != nil else { throw error("a range from a whole month ends at a month, as in 'Jan-Mar'") }
                    to.day = try dayNumber(of: month)
                } else {
                    let endMonth = try monthName()
                    let endDay = try optionalDay(of: endMonth)
                    guard (day == nil) == (endDay == nil) else {
                        throw error("a range goes from a day to a day ('Dec 24-Jan 02') or a month to a month ('Jan-Mar')")
                    }
                    to = OpeningHours.MonthDay(month: endMonth, day: endDay ?? CivilDate.maximumDays(inMonth: endMonth))
                }
            }
            ranges.append(OpeningHours.MonthDayRange(from: from, to: to))
        } while takeListComma(before: { Self.month($0) != nil })
        return ranges
    }

    private mutating func monthName() throws(OpeningHoursError) -> Int {
        guard let word = peekWord, let month = Self.month(word) else {
            throw error("expected a month (Jan, Feb, … Dec)")
        }
        position += word.unicodeScalars.count
        return month
    }

    /// A day number after a month and one space, if there is one.
    private mutating func optionalDay(of month: Int) throws(OpeningHoursError) -> Int? {
        let saved = position
        skipSpaces()
        guard let next = peek, next.properties.numericType != nil, next.isASCII, !isTimeAhead else {
            position = saved
            return nil
        }
        return try dayNumber(of: month)
    }

    private mutating func dayNumber(of month: Int) throws(OpeningHoursError) -> Int {
        let start = position
        guard let number = digits(maximumCount: 2), (1...CivilDate.maximumDays(inMonth: month)).contains(number) else {
            position = start
            throw error("expected a day of \(Self.months[month - 1]), 1 to \(CivilDate.maximumDays(inMonth: month))")
        }
        return number
    }

    // MARK: Times

    /// `08:00-12:00,13:00-17:30`; an end at or before its start passes
    /// midnight, as does an end past `24:00` (up to `48:00`).
    private mutating func timeSpans() throws(OpeningHoursError) -> [MinuteSpan] {
        var spans: [MinuteSpan] = []
        repeat {
            let start = try time(maximumHour: 24)
            guard start < MinuteSpan.minutesPerDay else { throw error("a span cannot start at 24:00") }
            guard take("-") else { throw error("expected '-' and the end of the span") }
            var end = try time(maximumHour: 48)
            if end <= start { end += MinuteSpan.minutesPerDay }  // `22:00-02:00`
            guard end <= 2 * MinuteSpan.minutesPerDay else { throw error("a span cannot end past 48:00") }
            spans.append(MinuteSpan(start: start, end: end))
        } while takeListComma(before: nil)
        return spans
    }

    /// `H:MM` or `HH:MM`, in minutes.
    private mutating func time(maximumHour: Int) throws(OpeningHoursError) -> Int {
        let start = position
        guard let hour = digits(maximumCount: 2), take(":"), let minute = digits(exactCount: 2) else {
            position = start
            throw error("expected a time such as 08:00")
        }
        guard minute < 60, hour < maximumHour || (hour == maximumHour && minute == 0) else {
            position = start
            throw error("no such time: \(hour):\(minute < 10 ? "0" : "")\(minute)")
        }
        return hour * 60 + minute
    }

    private var isTimeAhead: Bool { isTime(at: position) }

    /// Digits and a `:` at `index`: a time, not a day number or `24/7`.
    private func isTime(at start: Int) -> Bool {
        var index = start
        while index < scalars.count, scalars[index].properties.numericType != nil, scalars[index].isASCII { index += 1 }
        return index < scalars.count && scalars[index] == ":"
    }

    // MARK: Scanning

    /// A `,` that continues the current list: one followed directly by a
    /// word the list takes (`before`), or, for time spans (`before` nil),
    /// by a time, spaces allowed between. Anything else after a `,` starts
    /// an additional rule, so it is left: `Sa,Fr, Th 10:00-12:00` is
    /// `Sa,Fr` and `, Th 10:00-12:00`, and `10:00-12:00, 24/7` ends with
    /// `, 24/7`. This is opening-hours' grammar (`grammar.pest`:
    /// `weekday_sequence` and `monthday_selector` join with a bare `,`,
    /// `time_selector` with `"," ~ space?`, and `additional_rule_separator`
    /// is `space? ~ "," ~ space`).
    private mutating func takeListComma(before accepts: ((String) -> Bool)?) -> Bool {
        guard peek == "," else { return false }
        var index = position + 1
        let continues: Bool
        if let accepts {
            let saved = position
            position = index
            continues = peekWord.map(accepts) ?? false
            position = saved
        } else {
            while index < scalars.count, scalars[index] == " " { index += 1 }
            continues = isTime(at: index)
        }
        if continues { position = index }
        return continues
    }

    private var atEnd: Bool { position >= scalars.count }
    private var peek: Unicode.Scalar? { atEnd ? nil : scalars[position] }

    /// The run of ASCII letters at the position, if any.
    private var peekWord: String? {
        var index = position
        var word = String.UnicodeScalarView()
        while index < scalars.count, scalars[index].isASCII, scalars[index].properties.isAlphabetic {
            word.append(scalars[index])
            index += 1
        }
        return word.isEmpty ? nil : String(word)
    }

    private mutating func skipSpaces() {
        while peek == " " { position += 1 }
    }

    private mutating func take(_ literal: String) -> Bool {
        let literal = Array(literal.unicodeScalars)
        guard position + literal.count <= scalars.count,
            Array(scalars[position..<position + literal.count]) == literal
        else { return false }
        position += literal.count
        return true
    }

    private mutating func digits(maximumCount: Int) -> Int? {
        var value = 0, count = 0
        while count < maximumCount, let next = peek, next.isASCII, let digit = next.properties.numericType != nil ? Int(String(next)) : nil {
            value = value * 10 + digit
            count += 1
            position += 1
        }
        return count > 0 ? value : nil
    }

    private mutating func digits(exactCount: Int) -> Int? {
        let start = position
        guard let value = digits(maximumCount: exactCount), position - start == exactCount else { return nil }
        return value
    }

    private func error(_ reason: String) -> OpeningHoursError {
        OpeningHoursError(column: position + 1, reason: reason)
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// 1…12 for a month's three letters.
    static func month(_ word: String) -> Int? {
        months.firstIndex(of: word).map { $0 + 1 }
    }
}
