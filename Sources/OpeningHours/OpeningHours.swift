import Foundation

/// A store's opening hours, in OpenStreetMap's `opening_hours` syntax, and
/// whether the store is open at an instant in its own time zone.
///
/// The subset read is what store lists carry
/// (https://wiki.openstreetmap.org/wiki/Key:opening_hours/specification):
///
/// - weekday ranges and lists: `Mo-Fr`, `Mo,We,Fr`, `Fr-Mo` (wrapping past
///   Sunday);
/// - several time spans: `08:00-12:00,13:00-17:30`;
/// - spans past midnight, which belong to the day they start:
///   `22:00-02:00` or `22:00-26:00` (ends up to `48:00`);
/// - `24/7`; `off` and `closed`; `open`;
/// - rules separated by `;`, where a later rule replaces earlier ones for
///   the days it selects, and additional rules after `,`, which add to them;
/// - month-day selectors and exceptions: `Dec 25 off`, `Dec 24-26`,
///   `Dec 24-Jan 02`, `Jan-Mar`;
/// - `PH` (public holidays) is read, but no holiday calendar is known, so it
///   selects no day: `Mo-Su 08:00-20:00; PH off` is open on Christmas.
///
/// A day's schedule follows the rules in order. A rule selecting the day
/// replaces what earlier rules gave it, the part of the previous day's
/// spans past midnight included; a rule selecting the previous day adds its
/// spans past midnight to the day. So `Mo 22:00-02:00; Tu off` is closed at
/// 01:00 on Tuesday, and `Tu off; Mo 22:00-02:00` open. This is what
/// opening-hours (the Rust crate behind opening-hours-py, which follows
/// opening_hours.js) answers, with one difference: that crate also drops the
/// previous night's spans when the day's own rule *came earlier* and opens
/// the store (`Tu 10:00-12:00; Mo 22:00-02:00`, closed at Tuesday 01:00
/// there); here the later rule wins, as everywhere else.
public struct OpeningHours: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    let rules: [Rule]

    /// Reads an expression; a mistake throws with its column.
    public init(_ text: String) throws(OpeningHoursError) {
        self.text = text
        var parser = OpeningHoursParser(text)
        rules = try parser.parse()
    }

    public var description: String { text }

    /// Whether the store is open at `instant`, read on the wall clock of
    /// `timeZone` (daylight-saving changes included: the wall clock is the
    /// zone's at that instant).
    public func isOpen(at instant: Date, in timeZone: TimeZone) -> Bool {
        isOpen(atLocalSeconds: instant.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: instant)))
    }

    /// Whether the store is open at `local` seconds since 1970-01-01T00:00
    /// of its own wall clock: for a caller that asks about many stores in
    /// one zone, and looks the zone's offset up once.
    public func isOpen(atLocalSeconds local: Double) -> Bool {
        guard local.isFinite, abs(local) < 1e14 else { return false }
        let seconds = Int64(local.rounded(.down))
        let (days, secondOfDay) = seconds.floorDividedBy(86_400)
        return isOpen(on: CivilDate(daysSinceEpoch: days), minute: Int(secondOfDay / 60))
    }

    /// Whether the store is open at `minute` (0..<1440) of local day `date`.
    func isOpen(on date: CivilDate, minute: Int) -> Bool {
        schedule(of: date).contains { $0.contains(minute) }
    }

    /// The day's open spans, in minutes 0..<1440 of that day.
    func schedule(of date: CivilDate) -> [MinuteSpan] {
        let previous = date.previousDay
        var spans: [MinuteSpan] = []
        for rule in rules {
            let overnight = rule.selects(previous) ? rule.spansPastMidnight : []
            guard rule.selects(date) else {
                spans += overnight
                continue
            }
            let own = rule.spansWithinDay
            switch (rule.isAdditional, rule.isOpen) {
            case (false, true): spans = own + overnight
            case (false, false): spans = overnight
            case (true, true): spans += own + overnight
            case (true, false): spans = spans.flatMap { $0.subtracting(own) } + overnight
            }
        }
        return spans
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, with a remainder of the
    /// divisor's sign: a local time before 1970 is still in its own day.
    fileprivate func floorDividedBy(_ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = self / divisor, remainder = self % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
