import Foundation
import StoreCatalog
import Testing

/// `StoreSearch.instant(parsing:)`: RFC 3339 date-times exactly, the
/// instants `--open-at` and `openAt=` take.
@Suite struct InstantParsingTests {
    @Test(
        arguments: [
            ("2026-11-24T09:30:00+09:00", 1_795_480_200.0),
            ("2026-11-24T00:30:00Z", 1_795_480_200.0),
            ("2026-11-24t00:30:00z", 1_795_480_200.0),
            ("2026-11-23T19:30:00-05:00", 1_795_480_200.0),
            ("2026-11-24T00:30:00.25Z", 1_795_480_200.25),
            ("2024-02-29T00:00:00Z", 1_709_164_800.0),
            ("1970-01-01T00:00:00Z", 0.0),
            ("1969-12-31T23:59:59Z", -1.0),
            ("2026-11-24T18:30:00+18:00", 1_795_480_200.0),
            ("2026-03-08T01:45:00-05:00", 1_772_952_300.0),
        ] as [(String, Double)])
    func readsTheInstant(text: String, seconds: Double) throws {
        let date = try #require(StoreSearch.instant(parsing: text))
        #expect(date.timeIntervalSince1970 == seconds)
    }

    @Test func agreesWithFoundationOnEveryDayOfTwoYears() throws {
        // ISO8601DateFormatter is right on well-formed input; the two
        // must agree wherever both read it.
        let formatter = ISO8601DateFormatter()
        var day = try #require(formatter.date(from: "2027-12-31T23:00:00Z"))
        for _ in 0..<(2 * 366) {
            let text = formatter.string(from: day)
            #expect(StoreSearch.instant(parsing: text) == day, "\(text)")
            day = day.addingTimeInterval(-86_400 + 61)
        }
    }

    @Test(
        arguments: [
            "2026-11-28T13:30:00+99:00", "2026-11-28T13:30:00+18:01", "99999-11-28T13:30:00Z", "226-11-28T13:30:00Z",
            "2026-02-30T13:30:00Z", "2026-02-29T13:30:00Z", "2026-13-01T00:00:00Z", "2026-11-28T24:00:00Z", "2026-11-28T13:60:00Z",
            "2026-11-28T13:30:00", "2026-11-28 13:30:00Z", "2026-11-28T13:30:00.Z", "2026-11-28T13:30:00+0900",
            "2026-11-28T13:30:00+09:60", "2026-11-28T13:30:00Z\u{0}", "2026-11-28T13:30Z", "yesterday", "",
        ])
    func refusesWhatIsNoDateTime(text: String) {
        #expect(StoreSearch.instant(parsing: text) == nil, "\(text)")
    }

    @Test func nowIsTheGivenNow() {
        let now = Date(timeIntervalSince1970: 42)
        #expect(StoreSearch.instant(parsing: "now", now: now) == now)
    }
}
