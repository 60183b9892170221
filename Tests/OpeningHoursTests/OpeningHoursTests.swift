import Foundation
import Testing

@testable import OpeningHours

/// Opening hours read and evaluated as the reference implementations do.
@Suite("Opening hours")
struct OpeningHoursTests {
    /// Local wall-clock times (2026-11-23 is a Monday).
    static let times = [
        "2026-11-23T07:59",
        "2026-11-23T08:00",
        "2026-11-23T12:30",
        "2026-11-24T01:00",
        "2026-11-24T01:59",
        "2026-11-24T02:00",
        "2026-11-27T23:00",
        "2026-11-28T23:30",
        "2026-11-29T01:30",
        "2026-11-29T11:00",
        "2026-11-30T03:00",
        "2026-12-24T13:00",
        "2026-12-25T11:00",
        "2026-12-26T00:30",
        "2027-01-01T12:00",
        "2027-01-03T11:00",
        "2027-02-13T12:00",
        "2026-11-25T23:59",
        "2026-11-26T00:00",
    ]

    /// Each expression's answer at each of ``times``, "1" for open, as
    /// opening-hours-py 1.1 and 2.1.4 (the Rust `opening-hours` crate, which
    /// follows opening_hours.js) give them: `OpeningHours(expr).is_open(datetime)`.
    static let reference: [(String, String)] = [
        ("Mo-Fr 08:00-12:00,13:00-17:30", "0100000000011000000"),
        ("Mo,We,Fr 09:00-18:00", "0010000000001010000"),
        ("Fr-Mo 10:00-16:00", "0010000001001011100"),
        ("Mo-Su 22:00-02:00", "0001101110000100011"),
        ("Sa 22:00-26:00", "0000000110000000000"),
        ("24/7", "1111111111111111111"),
        ("Mo-Fr 08:00-20:00; Sa off", "0110000000011010000"),
        ("Mo-Su 09:00-21:00; Dec 25 off", "0010000001010011100"),
        ("Mo-Su 09:00-21:00; PH off", "0010000001011011100"),
        ("Mo-Sa 10:00-20:00; Su off; Dec 24 10:00-14:00", "0010000000011010100"),
        ("Mo 22:00-02:00; Tu off", "0000000000000000000"),
        ("Tu off; Mo 22:00-02:00", "0001100000000000000"),
        ("Mo-Fr 08:00-18:00, Sa 10:00-14:00", "0110000000011010100"),
        ("Mo-Su 10:00-18:00; Dec 24-Jan 02 off", "0010000001000001100"),
        ("Jan-Mar Sa-Su 10:00-16:00", "0000000000000001100"),
        ("Mo-Fr 07:30-23:59", "1110001000011010000"),
        ("Mo-Fr 00:00-24:00", "1111111000111010011"),
        ("Mo 10:00-09:00", "0011110000000000000"),
        ("off", "0000000000000000000"),
        ("Sa", "0000000100000100100"),
        ("08:00-12:00", "0100000001001001000"),
        ("Mo-Su 11:00-14:00,17:00-01:00", "0010001101011111111"),
        ("Dec 25 10:00-12:00", "0000000000001000000"),
    ]

    @Test("every expression answers as opening-hours-py at every local time", arguments: reference)
    func answersAsTheReference(expression: String, expected: String) throws {
        let hours = try OpeningHours(expression)
        for (time, want) in zip(Self.times, expected) {
            let (date, minute) = try #require(Self.local(time))
            #expect(hours.isOpen(on: date, minute: minute) == (want == "1"), "\(expression) at \(time)")
        }
    }

    @Test("a day's own rule wins over the previous night's spans past midnight, before or after it")
    func aDaysOwnRuleWinsOverThePreviousNight() throws {
        let (tuesday, one) = try #require(Self.local("2026-11-24T01:00"))
        // opening-hours-py 2.1.4 answers these too: open, closed, closed,
        // open, closed, open.
        #expect(try OpeningHours("Mo 22:00-02:00").isOpen(on: tuesday, minute: one))
        #expect(try !OpeningHours("Mo 22:00-02:00; Tu 10:00-12:00").isOpen(on: tuesday, minute: one))
        #expect(try !OpeningHours("Mo 22:00-02:00; Mo-Su 10:00-12:00").isOpen(on: tuesday, minute: one))
        #expect(try OpeningHours("Mo 22:00-02:00, Tu 10:00-12:00").isOpen(on: tuesday, minute: one))
        // The Monday rule comes later but does not select Tuesday, which
        // already has an open span: its night is dropped.
        #expect(try !OpeningHours("Tu 10:00-12:00; Mo 22:00-02:00").isOpen(on: tuesday, minute: one))
        // Tuesday has no open span: the night stays.
        #expect(try OpeningHours("Tu off; Mo 22:00-02:00").isOpen(on: tuesday, minute: one))
    }

    @Test("an instant is read on the store's own wall clock, daylight-saving changes included")
    func instantsInTheStoresZone() throws {
        let seoul = try #require(TimeZone(identifier: "Asia/Seoul"))
        let weekdays = try OpeningHours("Mo-Fr 09:00-18:00")
        // 2026-11-23 09:30 in Seoul is 00:30 UTC.
        #expect(weekdays.isOpen(at: try Self.instant("2026-11-23T00:30:00Z"), in: seoul))
        #expect(!weekdays.isOpen(at: try Self.instant("2026-11-22T23:30:00Z"), in: seoul))  // 08:30
        #expect(!weekdays.isOpen(at: try Self.instant("2026-11-23T00:30:00Z"), in: TimeZone(identifier: "UTC")!))

        // Berlin springs forward on 2026-03-29: 02:00 CET becomes 03:00 CEST.
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let night = try OpeningHours("Su 01:00-03:30")
        #expect(night.isOpen(at: try Self.instant("2026-03-29T00:59:00Z"), in: berlin))  // 01:59 CET
        #expect(night.isOpen(at: try Self.instant("2026-03-29T01:00:00Z"), in: berlin))  // 03:00 CEST
        #expect(!night.isOpen(at: try Self.instant("2026-03-29T01:30:00Z"), in: berlin))  // 03:30 CEST
        // It falls back on 2026-10-25: 02:15 happens twice, open both times.
        let early = try OpeningHours("Su 02:00-02:30")
        #expect(early.isOpen(at: try Self.instant("2026-10-25T00:15:00Z"), in: berlin))  // 02:15 CEST
        #expect(early.isOpen(at: try Self.instant("2026-10-25T01:15:00Z"), in: berlin))  // 02:15 CET
        #expect(!early.isOpen(at: try Self.instant("2026-10-25T01:45:00Z"), in: berlin))  // 02:45 CET

        // A span past midnight in Los Angeles, read across the UTC date line.
        let losAngeles = try #require(TimeZone(identifier: "America/Los_Angeles"))
        let bar = try OpeningHours("Fr 18:00-02:00")
        #expect(bar.isOpen(at: try Self.instant("2026-11-28T09:30:00Z"), in: losAngeles))  // Sat 01:30 PST
        #expect(!bar.isOpen(at: try Self.instant("2026-11-28T10:30:00Z"), in: losAngeles))  // Sat 02:30 PST
    }

    @Test(
        "mistakes are reported with their column",
        arguments: [
            ("", 1, "empty"),
            ("Mo-Fr 08:00-12:00;", 19, "nothing after ';'"),
            ("Mo-Fr 8:00-12", 12, "expected a time"),
            ("Mo 25:00-26:00", 4, "no such time: 25:00"),
            ("Mo 08:00-49:00", 10, "no such time: 49:00"),
            ("Mo 24:00-25:00", 9, "cannot start at 24:00"),
            ("Dec 32 off", 5, "a day of Dec, 1 to 31"),
            ("Apr 31 off", 5, "a day of Apr, 1 to 30"),
            ("Mx 08:00-12:00", 1, "unknown word 'Mx'"),
            ("Mo-Xy 08:00-12:00", 4, "unknown weekday 'Xy'"),
            ("Mo 08:00-12:00 || Tu off", 16, "'||'"),
            ("Mo 08:00 12:00", 9, "expected '-'"),
        ] as [(String, Int, String)])
    func mistakesHaveAColumn(expression: String, column: Int, reason: String) {
        #expect { try OpeningHours(expression) } throws: { error in
            guard let error = error as? OpeningHoursError else { return false }
            return error.column == column && error.reason.contains(reason)
        }
    }

    @Test("a value longer than any real expression is refused, not scanned")
    func longValuesAreRefused() {
        let long = String(repeating: "Mo 08:00-12:00; ", count: 200)
        #expect(throws: OpeningHoursError.self) { try OpeningHours(long) }
    }

    @Test("the civil calendar agrees with Foundation's from 1641 to 2369 (Foundation is Julian before 1582)")
    func civilDatesAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for days in stride(from: Int64(-120_000), through: 146_097, by: 97) {
            let date = CivilDate(daysSinceEpoch: days)
            #expect(date.daysSinceEpoch == days)
            let components = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86_400))
            #expect(components.year == Int(date.year) && components.month == date.month && components.day == date.day)
            // Foundation counts Sunday as 1; ours counts Monday as 0.
            #expect((components.weekday! + 5) % 7 == date.weekday.rawValue)
        }
    }

    static func local(_ text: String) -> (CivilDate, Int)? {
        let parts = text.split(separator: "T")
        let date = parts[0].split(separator: "-").compactMap { Int($0) }
        let time = parts[1].split(separator: ":").compactMap { Int($0) }
        guard date.count == 3, time.count == 2 else { return nil }
        return (CivilDate(year: Int64(date[0]), month: date[1], day: date[2]), time[0] * 60 + time[1])
    }

    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }
}
