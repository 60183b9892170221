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
/// - rules separated by `;`, and additional rules after `,`;
/// - month-day selectors and exceptions: `Dec 25 off`, `Dec 24-26`,
///   `Dec 24-Jan 02`, `Jan-Mar`;
/// - `PH` (public holidays) is read, but no holiday calendar is known, so it
///   selects no day: `Mo-Su 08:00-20:00; PH off` is open on Christmas.
///
/// Answers are exactly those of opening-hours-py 2.1.4, the Python face of
/// the Rust crate `opening-hours` 2.1.4 (which follows opening_hours.js),
/// given the store's zone: `OpeningHours(expr, timezone=ZoneInfo(zone))
/// .is_open(instant)`; `scripts/opening-hours-conformance` checks it. That
/// crate reads a day as follows (`OpeningHours::schedule_at` in its
/// `opening_hours.rs`):
///
/// - A rule's spans on a day are those of the days it selects, cut at
///   midnight, plus the part past midnight of its spans on the day before,
///   if it selects that day.
/// - Rules are read in order. A rule after `;` that selects the day
///   replaces what the rules before it gave the day, the previous night's
///   spans past midnight included. One that does not select the day brings
///   its previous night's spans only if the day has no open span yet:
///   `Mo 22:00-02:00; Tu off` and `Tu 10:00-12:00; Mo 22:00-02:00` are
///   closed at 01:00 on Tuesday, `Tu off; Mo 22:00-02:00` open.
/// - A rule after `,` adds its spans. An `off` or `closed` rule, after `;`
///   or `,`, only closes its own spans (the whole day without times):
///   `Mo-Fr 08:00-18:00; Mo 12:00-13:00 off` is open on Monday morning.
/// - `, ` starts an additional rule unless a time follows: weekdays and
///   month days join with a bare `,`, so `Mo, We 10:00-12:00` is Monday
///   all day and Wednesday's spans (the crate's `grammar.pest`).
///
/// An instant is read on the zone's wall clock, as a minute: a time the
/// clock skips is never read, and one it repeats is read the same both
/// times. In the minute before the clock is turned back, the answer is
/// closed (see ``LocalTime``). Dates before 1900 or after 9999 are closed.
public struct OpeningHours: Hashable, Sendable, CustomStringConvertible {
    /// The expression as written.
    public let text: String
    let rules: [Rule]
    let cells: DayCells

    /// Reads an expression; a mistake throws with its column.
    public init(_ text: String) throws(OpeningHoursError) {
        self.text = text
        var parser = OpeningHoursParser(text)
        rules = try parser.parse()
        cells = DayCells(rules: rules)
    }

    public var description: String { text }

    /// Whether the store is open at `instant`, read on the wall clock of
    /// `timeZone` (see ``LocalTime``).
    public func isOpen(at instant: Date, in timeZone: TimeZone) -> Bool {
        isOpen(at: LocalTime(instant, in: timeZone))
    }

    /// Whether the store is open at an instant already read on its zone's
    /// wall clock: for a caller that asks about many stores in one zone,
    /// and reads the zone's clock once.
    public func isOpen(at time: LocalTime) -> Bool {
        !time.isInMinuteBeforeFallBack && isOpen(atLocalSeconds: time.localSeconds)
    }

    /// Whether the store is open at `local` seconds since 1970-01-01T00:00
    /// of its own wall clock. A wall-clock time alone cannot tell the
    /// minute before the clock is turned back, which an instant can:
    /// prefer ``isOpen(at:)``.
    public func isOpen(atLocalSeconds local: Double) -> Bool {
        guard local.isFinite, abs(local) < 1e14 else { return false }
        let seconds = Int64(local.rounded(.down))
        let (days, secondOfDay) = seconds.floorDividedBy(86_400)
        return isOpen(on: CivilDate(daysSinceEpoch: days), minute: Int(secondOfDay / 60))
    }

    /// Whether the store is open at `minute` (0..<1440) of local day `date`.
    ///
    /// The reference builds the day's schedule as ranges (`schedule_at`);
    /// here the same steps run on the day's cells (``DayCells``), one bit a
    /// cell, in words on the stack.
    func isOpen(on date: CivilDate, minute: Int) -> Bool {
        // The crate's `DATE_START..DATE_END`: no schedule outside it.
        guard (Self.firstDay..<Self.endDay).contains(date.daysSinceEpoch) else { return false }
        let today = Day(date), yesterday = Day(date.previousDay)
        let cell = cells.cell(containing: minute)
        let wordCount = cells.wordCount
        return cells.masks.withUnsafeBufferPointer { masks in
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: wordCount) { open in
                open.initialize(repeating: 0)
                for (index, rule) in rules.enumerated() {
                    // `rule_sequence_schedule_at`: the rule's spans on the
                    // day if it selects it, plus its spans past midnight
                    // from the day before if it selects that one.
                    let selectsToday = rule.days.selects(today)
                    let selectsYesterday = rule.days.selects(yesterday)
                    guard selectsToday || selectsYesterday else { continue }
                    let ownMask = 2 * index * wordCount, nextDayMask = ownMask + wordCount
                    func spans(_ word: Int) -> UInt64 {
                        (selectsToday ? masks[ownMask + word] : 0) | (selectsYesterday ? masks[nextDayMask + word] : 0)
                    }
                    switch (rule.isOpen, rule.isAdditional) {
                    case (true, false):
                        // `schedule_at`, `(Normal, Open)`: a rule selecting
                        // the day replaces it; one that does not keeps the
                        // day as it is unless the day has no open span
                        // (`is_always_closed_with_no_comments`), and only
                        // then brings its previous night.
                        if !selectsToday && open.contains(where: { $0 != 0 }) { continue }
                        for word in 0..<wordCount { open[word] = spans(word) }
                    case (true, true):
                        // `(Additional, _)`: `Schedule::addition`.
                        for word in 0..<wordCount { open[word] |= spans(word) }
                    case (false, _):
                        // `(Normal, Closed)` "acts like the additional
                        // rule": its closed spans are laid over the day.
                        for word in 0..<wordCount { open[word] &= ~spans(word) }
                    }
                }
                return open[cell >> 6] & (1 << UInt64(cell & 63)) != 0
            }
        }
    }

    /// 1900-01-01 and 10000-01-01, in days since 1970-01-01: the crate's
    /// `DATE_START` and `DATE_END`, which bound the dates it evaluates.
    static let firstDay = CivilDate(year: 1900, month: 1, day: 1).daysSinceEpoch
    static let endDay = CivilDate(year: 10_000, month: 1, day: 1).daysSinceEpoch
}

extension OpeningHours {
    /// An instant read on a zone's wall clock, as the reference reads it.
    ///
    /// The wall clock is the zone's offset at that instant
    /// (`TzLocation::naive`: `with_timezone(tz).naive_local()`), so a
    /// skipped hour is never read and a repeated one is read twice alike.
    ///
    /// The reference's `is_open(t)` is the state of the first interval of
    /// `iter_range(t, t + 1 minute)`, both ends read on the wall clock.
    /// When the clock is turned back within that minute (by 30 minutes at
    /// Lord Howe, an hour elsewhere), the end reads before the start, the
    /// iterator yields nothing and the state is the default: closed. So
    /// `24/7` is closed in New York from 2026-11-01T05:59:00Z to 05:59:59Z
    /// (01:59 EDT, before 01:00 EST). ``isInMinuteBeforeFallBack`` keeps
    /// that.
    public struct LocalTime: Hashable, Sendable {
        /// Seconds since 1970-01-01T00:00 on the zone's wall clock.
        public let localSeconds: Double
        /// The wall clock a minute later reads no later than now: the
        /// clock is turned back within the minute.
        public let isInMinuteBeforeFallBack: Bool

        public init(_ instant: Date, in zone: TimeZone) {
            let offset = zone.secondsFromGMT(for: instant)
            localSeconds = instant.timeIntervalSince1970 + Double(offset)
            // (t + 60 + later offset) <= (t + offset) on the wall clock.
            isInMinuteBeforeFallBack = zone.secondsFromGMT(for: instant.addingTimeInterval(60)) - offset <= -60
        }
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
