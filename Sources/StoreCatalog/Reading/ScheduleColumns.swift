import Foundation
import Locks
import OpeningHours

/// The attribute columns a search's opening-time filter reads: the store's
/// opening hours and its time zone. The import checks them as it checks a
/// latitude, so a store that would never match because of a typo is
/// reported, not silently kept.
package enum ScheduleColumns {
    /// Headers holding opening hours in OpenStreetMap's `opening_hours`
    /// syntax, as an import names them (English, the OpenStreetMap key,
    /// Korean), compared as headers are (trimmed, case ignored).
    package static let hoursHeaders: Set<String> = ["opening_hours", "hours", "영업시간"]
    /// The header of a store's own IANA time zone.
    package static let zoneHeader = "timezone"

    /// A column the opening-time filter reads.
    package enum Column: Sendable {
        case hours, zone
    }

    /// The column `header` names, if it is one of them.
    package static func column(named header: String) -> Column? {
        let folded = HeaderName.folded(header)
        if hoursHeaders.contains(folded) { return .hours }
        return folded == zoneHeader ? .zone : nil
    }

    /// Why `value` cannot be a value of `column`, or nil when it can (or
    /// the column is neither). Null is no hours or no zone.
    static func problem(in column: Column?, value: AttributeValue) -> String? {
        if column == .hours {
            guard case .string(let text) = value else {
                return value == .null ? nil : "opening hours must be text, found \(value)"
            }
            do throws(OpeningHoursError) {
                _ = try OpeningHours(text)
            } catch {
                return "invalid opening hours at character \(error.column): \(error.reason)"
            }
        } else if column == .zone {
            guard case .string(let name) = value else {
                return value == .null ? nil : "a time zone must be text, found \(value)"
            }
            guard zone(named: name) != nil else { return unknownZone(name) }
        }
        return nil
    }

    /// "unknown time zone 'X'…", for the import's options and its rows alike.
    package static func unknownZone(_ name: String) -> String {
        let shown = name.count > 40 ? "\(name.prefix(40))…" : name
        return "unknown time zone '\(shown)': give an IANA name such as Asia/Seoul or Europe/Paris"
    }

    /// The zone named `name` (an IANA name, as the system's time zone data
    /// knows it), or nil. Names seen are remembered: building a `TimeZone`
    /// reads the zone's file, once per row otherwise.
    package static func zone(named name: String) -> TimeZone? {
        if let known = zones.withLock({ $0[name] }) { return known }
        guard !name.isEmpty, name.utf8.count <= 64, let zone = TimeZone(identifier: name) else { return nil }
        zones.withLock { cache in
            // Bounded: a file of made-up names must not grow it forever.
            if cache.count >= 1024 { cache.removeAll() }
            cache[name] = zone
        }
        return zone
    }

    private static let zones = StateLock<[String: TimeZone]>([:])
}
