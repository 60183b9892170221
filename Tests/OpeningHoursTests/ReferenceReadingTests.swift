import Foundation
import Testing

@testable import OpeningHours

/// The reading of opening-hours-py 2.1.4 where it is subtle: spans past
/// midnight against the next day's own rules, and days when the clocks
/// change. Every answer below is the reference's:
/// `OpeningHours(expr, timezone=ZoneInfo(zone)).is_open(instant)` with the
/// instant given in UTC.
@Suite("Opening hours as the reference reads them")
struct ReferenceReadingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var expression: String
        var zone: String
        /// UTC.
        var instant: String
        var isOpen: Bool
        /// The wall-clock time, for the reader.
        var local: String

        init(_ expression: String, _ zone: String, _ instant: String, _ isOpen: Bool, _ local: String) {
            (self.expression, self.zone, self.instant, self.isOpen, self.local) = (expression, zone, instant, isOpen, local)
        }

        var testDescription: String { "\(expression) in \(zone) at \(instant) (\(local)): \(isOpen ? "open" : "closed")" }
    }

    /// Measured disagreements of the old reading: an overnight span's
    /// morning on a day that has rules of its own. The reference ends the
    /// span at midnight.
    static let previousNight: [Case] = [
        // Saturday has its own spans (rule 1); Friday's 23:00-11:00 (rule
        // 3, later) does not reach into it.
        Case(
            "Sa 22:00-07:00,10:00-22:15; Tu-Th 22:00-23:00,17:00-23:00; Mo,We,Fr 10:30-16:15,23:00-11:00",
            "America/New_York", "2026-03-07T13:30:00Z", false, "Sat 08:30 EST"),
        Case(
            "Sa 22:00-07:00,10:00-22:15; Tu-Th 22:00-23:00,17:00-23:00; Mo,We,Fr 10:30-16:15,23:00-11:00",
            "America/New_York", "2026-03-07T11:30:00Z", false, "Sat 06:30 EST"),
        Case(
            "Sa 22:00-07:00,10:00-22:15; Tu-Th 22:00-23:00,17:00-23:00; Mo,We,Fr 10:30-16:15,23:00-11:00",
            "America/New_York", "2026-03-07T15:30:00Z", true, "Sat 10:30 EST"),
        // Sunday has `20:30-22:00` (rule 2, every day): Saturday's
        // 20:00-08:00 (rule 3) stops at midnight.
        Case("Sa 09:30-11:15; 20:30-22:00; Sa 20:00-08:00", "Australia/Sydney", "2026-03-07T13:30:00Z", false, "Sun 00:30 AEDT"),
        Case("Sa 09:30-11:15; 20:30-22:00; Sa 20:00-08:00", "Australia/Sydney", "2026-03-07T09:45:00Z", true, "Sat 20:45 AEDT"),
        // The night the clocks go forward in New York: Sunday has
        // `11:30-12:00` (rule 1), so Saturday's 20:30-02:00 ends at
        // midnight; without rule 1 it reaches 02:00.
        Case("Sa-Su 11:30-12:00; Sa 20:30-02:00; Tu-Th 07:00-15:15", "America/New_York", "2026-03-08T06:45:00Z", false, "Sun 01:45 EST"),
        Case("Sa-Su 11:30-12:00; Sa 20:30-02:00; Tu-Th 07:00-15:15", "America/New_York", "2026-03-08T04:45:00Z", true, "Sat 23:45 EST"),
        Case("Sa 20:30-02:00; Tu-Th 07:00-15:15", "America/New_York", "2026-03-08T06:45:00Z", true, "Sun 01:45 EST"),
        // `off` closes only its own spans, after `;` as after `,`, and its
        // spans past midnight too.
        Case("Mo-Fr 08:00-18:00; Mo 12:00-13:00 off", "UTC", "2026-11-23T10:00:00Z", true, "Mon 10:00"),
        Case("Mo-Fr 08:00-18:00; Mo 12:00-13:00 off", "UTC", "2026-11-23T12:30:00Z", false, "Mon 12:30"),
        Case("Mo 22:00-02:00, Tu 01:00-03:00 off", "UTC", "2026-11-24T00:30:00Z", true, "Tue 00:30"),
        Case("Mo 22:00-02:00, Tu 01:00-03:00 off", "UTC", "2026-11-24T01:30:00Z", false, "Tue 01:30"),
        Case("24/7; Mo 22:00-02:00 off", "UTC", "2026-11-24T01:30:00Z", false, "Tue 01:30"),
        Case("24/7; Mo 22:00-02:00 off", "UTC", "2026-11-24T02:30:00Z", true, "Tue 02:30"),
    ]

    /// Clock changes of 2026: forward (a skipped hour, or half hour) and
    /// back (a repeated one), north and south, whole and half hours.
    static let clockChanges: [Case] = [
        // New York goes forward on 2026-03-08: 02:00 EST is 03:00 EDT.
        Case("Su 01:30-03:30", "America/New_York", "2026-03-08T06:59:00Z", true, "01:59 EST"),
        Case("Su 01:30-03:30", "America/New_York", "2026-03-08T07:00:00Z", true, "03:00 EDT"),
        Case("Su 01:30-03:30", "America/New_York", "2026-03-08T07:29:00Z", true, "03:29 EDT"),
        Case("Su 01:30-03:30", "America/New_York", "2026-03-08T07:30:00Z", false, "03:30 EDT"),
        Case("Su 02:00-03:00", "America/New_York", "2026-03-08T06:59:00Z", false, "01:59 EST"),
        Case("Su 02:00-03:00", "America/New_York", "2026-03-08T07:00:00Z", false, "03:00 EDT: the hour never shows"),
        Case("24/7", "America/New_York", "2026-03-08T06:59:30Z", true, "01:59:30 EST"),
        // It goes back on 2026-11-01: 02:00 EDT is 01:00 EST, and 01:xx
        // comes twice. The minute before it, the reference says closed.
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T05:00:00Z", true, "01:00 EDT"),
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T05:58:59Z", true, "01:58:59 EDT"),
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T05:59:00Z", false, "01:59 EDT, the minute before"),
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T06:00:00Z", true, "01:00 EST"),
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T06:59:00Z", true, "01:59 EST"),
        Case("Su 01:00-02:00", "America/New_York", "2026-11-01T07:00:00Z", false, "02:00 EST"),
        Case("24/7", "America/New_York", "2026-11-01T05:58:59Z", true, "01:58:59 EDT"),
        Case("24/7", "America/New_York", "2026-11-01T05:59:00Z", false, "01:59:00 EDT, the minute before"),
        Case("24/7", "America/New_York", "2026-11-01T05:59:59Z", false, "01:59:59 EDT, the minute before"),
        Case("24/7", "America/New_York", "2026-11-01T06:00:00Z", true, "01:00 EST"),
        // Sydney goes back on 2026-04-05 (03:00 AEDT is 02:00 AEST) and
        // forward on 2026-10-04 (02:00 AEST is 03:00 AEDT).
        Case("Su 02:00-03:00", "Australia/Sydney", "2026-04-04T15:00:00Z", true, "02:00 AEDT"),
        Case("Su 02:00-03:00", "Australia/Sydney", "2026-04-04T15:59:00Z", false, "02:59 AEDT, the minute before"),
        Case("Su 02:00-03:00", "Australia/Sydney", "2026-04-04T16:00:00Z", true, "02:00 AEST"),
        Case("Su 02:00-03:00", "Australia/Sydney", "2026-04-04T16:59:00Z", true, "02:59 AEST"),
        Case("Su 02:00-03:00", "Australia/Sydney", "2026-04-04T17:00:00Z", false, "03:00 AEST"),
        Case("Sa 23:00-02:30", "Australia/Sydney", "2026-10-03T15:59:00Z", true, "Sun 01:59 AEST"),
        Case("Sa 23:00-02:30", "Australia/Sydney", "2026-10-03T16:00:00Z", false, "Sun 03:00 AEDT"),
        Case("Sa 23:00-03:30", "Australia/Sydney", "2026-10-03T16:00:00Z", true, "Sun 03:00 AEDT"),
        Case("Sa 23:00-03:30", "Australia/Sydney", "2026-10-03T16:30:00Z", false, "Sun 03:30 AEDT"),
        // Lord Howe moves its clock by half an hour: back on 2026-04-05
        // (02:00 +11:00 is 01:30 +10:30), forward on 2026-10-04 (02:00
        // +10:30 is 02:30 +11:00).
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T14:30:00Z", true, "01:30 +11"),
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T14:58:00Z", true, "01:58 +11"),
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T14:59:00Z", false, "01:59 +11, the minute before"),
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T15:00:00Z", true, "01:30 +10:30"),
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T15:29:00Z", true, "01:59 +10:30"),
        Case("Su 01:30-02:00", "Australia/Lord_Howe", "2026-04-04T15:30:00Z", false, "02:00 +10:30"),
        Case("Su 02:00-02:30", "Australia/Lord_Howe", "2026-10-03T15:29:00Z", false, "01:59 +10:30"),
        Case("Su 02:00-02:30", "Australia/Lord_Howe", "2026-10-03T15:30:00Z", false, "02:30 +11: the half hour never shows"),
        Case("Su 02:30-03:00", "Australia/Lord_Howe", "2026-10-03T15:30:00Z", true, "02:30 +11"),
        // Kolkata: +05:30 all year.
        Case("Mo-Fr 09:00-18:00", "Asia/Kolkata", "2026-11-23T03:29:00Z", false, "08:59 IST"),
        Case("Mo-Fr 09:00-18:00", "Asia/Kolkata", "2026-11-23T03:30:00Z", true, "09:00 IST"),
        Case("Mo-Fr 09:00-18:00", "Asia/Kolkata", "2026-11-23T12:29:00Z", true, "17:59 IST"),
        Case("Mo-Fr 09:00-18:00", "Asia/Kolkata", "2026-11-23T12:30:00Z", false, "18:00 IST"),
        // The crate evaluates 1900-01-01 to 9999-12-31 on the wall clock.
        Case("24/7", "UTC", "1899-12-31T23:59:00Z", false, "before 1900"),
        Case("24/7", "UTC", "1900-01-01T00:00:00Z", true, "1900-01-01 00:00"),
        Case("24/7", "UTC", "9999-12-31T23:59:00Z", true, "9999-12-31 23:59"),
        Case("24/7", "Asia/Seoul", "9999-12-31T14:59:00Z", true, "9999-12-31 23:59 KST"),
        Case("24/7", "Asia/Seoul", "9999-12-31T15:00:00Z", false, "10000-01-01 00:00 KST"),
    ]

    @Test("an overnight span ends at midnight when the next day has an open span of its own", arguments: previousNight)
    func previousNightsSpans(_ test: Case) throws {
        try check(test)
    }

    @Test("days when the clocks change", arguments: clockChanges)
    func clocksChanging(_ test: Case) throws {
        try check(test)
    }

    @Test("the minute before the clock goes back is seen from the instant, not the wall-clock time")
    func minuteBeforeFallBack() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let before = OpeningHours.LocalTime(try Self.instant("2026-11-01T05:59:00Z"), in: newYork)
        let after = OpeningHours.LocalTime(try Self.instant("2026-11-01T06:59:00Z"), in: newYork)
        #expect(before.isInMinuteBeforeFallBack && !after.isInMinuteBeforeFallBack)
        #expect(before.localSeconds == after.localSeconds)  // 01:59 both times
        let hours = try OpeningHours("24/7")
        #expect(!hours.isOpen(at: before) && hours.isOpen(at: after))
        #expect(hours.isOpen(atLocalSeconds: before.localSeconds))
        // Forward: no minute is taken away.
        let spring = OpeningHours.LocalTime(try Self.instant("2026-03-08T06:59:00Z"), in: newYork)
        #expect(!spring.isInMinuteBeforeFallBack)
    }

    @Test("`, ` starts an additional rule unless a time follows it: lists of days join with a bare `,`")
    func commaAndSpace() throws {
        // opening-hours-py 2.1.4's answers, at 03:00 on Monday 2026-11-23
        // and on Friday 2026-12-25.
        let cases: [(String, monday: Bool, christmas: Bool)] = [
            ("Sa 10:00-12:00, 24/7", true, true),
            ("Sa 10:00-12:00, 24/7 off", false, false),
            ("Mo, Tu 10:00-12:00", true, false),  // `Mo` all day, then Tuesday's spans
            ("Mo,Tu 10:00-12:00", false, false),
            ("Sa,Fr-Sa, Th 09:45-21:15", false, true),
            ("Dec 25, Jan 01 off", false, true),  // `Dec 25` all day, then `Jan 01 off`
            ("Dec 25,Jan 01 off", false, false),
            ("Mo 01:00-02:00, 02:30-04:00", true, false),  // spans join with `, ` too
        ]
        let (monday, three) = try #require(OpeningHoursTests.local("2026-11-23T03:00"))
        let (christmas, _) = try #require(OpeningHoursTests.local("2026-12-25T03:00"))
        for (expression, isOpenOnMonday, isOpenOnChristmas) in cases {
            let hours = try OpeningHours(expression)
            #expect(hours.isOpen(on: monday, minute: three) == isOpenOnMonday, "\(expression)")
            #expect(hours.isOpen(on: christmas, minute: three) == isOpenOnChristmas, "\(expression)")
        }
    }

    @Test("an expression with more than 63 times lays its day on several words")
    func manyTimes() throws {
        // 72 spans of ten minutes, every twenty minutes: 144 cells, 3 words.
        let spans = stride(from: 0, to: 1_440, by: 20).map { start in
            func time(_ minute: Int) -> String {
                (minute / 60 < 10 ? "0" : "") + "\(minute / 60):" + (minute % 60 < 10 ? "0" : "") + "\(minute % 60)"
            }
            return time(start) + "-" + time(start + 10)
        }
        let hours = try OpeningHours("Mo-Fr " + spans.joined(separator: ",") + "; Sa 22:05-01:05")
        #expect(hours.cells.wordCount == 3)
        // opening-hours-py 2.1.4's answers at each local time.
        let expected: [(String, Bool)] = [
            ("2026-11-23T00:05", true), ("2026-11-23T00:15", false), ("2026-11-23T23:45", true), ("2026-11-23T23:55", false),
            ("2026-11-28T22:04", false), ("2026-11-28T22:05", true), ("2026-11-29T01:04", true), ("2026-11-29T01:05", false),
            ("2026-11-30T12:09", true), ("2026-11-30T12:10", false),
        ]
        for (time, isOpen) in expected {
            let (date, minute) = try #require(OpeningHoursTests.local(time))
            #expect(hours.isOpen(on: date, minute: minute) == isOpen, "\(time)")
        }
    }

    private func check(_ test: Case) throws {
        let hours = try OpeningHours(test.expression)
        let zone = try #require(TimeZone(identifier: test.zone))
        #expect(hours.isOpen(at: try Self.instant(test.instant), in: zone) == test.isOpen)
    }

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }
}
