import Foundation

/// RFC 3339 §5.6's `date-time`, read exactly:
/// `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`, `T` and `Z` in either case
/// (§5.6's note), every field in its range (§5.7). A leap second (`:60`)
/// is read as the second after `:59`, as POSIX time has none.
///
/// Written out rather than through `ISO8601DateFormatter`, which accepts
/// five-digit years and offsets such as `+99:00` that name no instant a
/// user meant.
enum RFC3339 {
    /// The largest offset from UTC taken: ±18:00, ISO 8601's and
    /// `java.time.ZoneOffset`'s bound (the zones in use span −12 to +14).
    static let maxOffsetMinutes = 18 * 60

    static func instant(_ text: String) -> Date? {
        var reader = Reader(Array(text.utf8))
        guard let year = reader.digits(4), reader.skip("-"), let month = reader.digits(2), reader.skip("-"),
            let day = reader.digits(2), reader.skip("T") || reader.skip("t"),
            let hour = reader.digits(2), reader.skip(":"), let minute = reader.digits(2), reader.skip(":"),
            let second = reader.digits(2)
        else { return nil }
        var fraction = 0.0
        if reader.skip(".") {
            var scale = 0.1
            var count = 0
            while let digit = reader.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { return nil }
        }
        let offsetMinutes: Int
        if reader.skip("Z") || reader.skip("z") {
            offsetMinutes = 0
        } else {
            let sign: Int
            if reader.skip("+") {
                sign = 1
            } else if reader.skip("-") {
                sign = -1
            } else {
                return nil
            }
            guard let hours = reader.digits(2), reader.skip(":"), let minutes = reader.digits(2), minutes < 60 else { return nil }
            offsetMinutes = sign * (hours * 60 + minutes)
            guard abs(offsetMinutes) <= maxOffsetMinutes else { return nil }
        }
        guard reader.atEnd, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date: Howard
    /// Hinnant's `days_from_civil` ("chrono-Compatible Low-Level Date
    /// Algorithms"), exact for every four-digit year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var atEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
