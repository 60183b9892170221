import Foundation
import Geo

/// A search that fills the carousel: stores of one list matching a text,
/// a category, attribute values, an area and an opening time, ranked by
/// distance when an area is given and in list order otherwise.
///
/// Every filter given must hold (AND). ``Catalog/search(_:)-st67`` runs it.
public struct StoreSearch: Sendable, Hashable {
    /// Where to look, and what the ranking measures from.
    public enum Area: Sendable, Hashable {
        /// Around a point, nearest first, optionally within a radius in meters.
        case near(Coordinate, withinMeters: Double?)
        /// Inside a box ("search this area"), nearest the box's centre first.
        case box(BoundingBox)
    }

    /// The list searched.
    public var list: String
    /// A substring of the name, address or category, case, accents and width
    /// ignored (`SearchFolding`).
    public var text: String?
    /// The category, compared whole, case and accents ignored.
    public var category: String?
    /// Attribute values that must match, as `(name, value)`: see
    /// ``AttributeFilter`` for how a typed value compares with the text.
    public var attributes: [AttributeFilter]
    public var area: Area?
    /// Only stores open at this instant on their own wall clock.
    public var openAt: Date?
    /// How many stores a page holds, 1…``maximumLimit``.
    public var limit: Int
    /// Where the page starts: the `next` of the page before.
    public var cursor: SearchCursor?

    /// An attribute that must have a given value, written as text
    /// (`KEY=VALUE`) and compared by the attribute's type:
    /// - a string: the same text, exactly;
    /// - a number: the same number, however written (`4.5` finds `4.50`
    ///   and `45e-1`), compared digit by digit, so long codes stay exact;
    /// - a boolean: `true` or `false`, in any case;
    /// - null: an empty value or `null`;
    /// - an array: any element that matches as above (`tags=wifi` finds
    ///   `["wifi","parking"]`), or the array's compact JSON;
    /// - an object: its compact JSON, keys sorted.
    ///
    /// A store without the attribute never matches.
    public struct AttributeFilter: Sendable, Hashable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        /// `KEY=VALUE` as typed (the value may hold `=`); nil without a key.
        public init?(parsing text: String) {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
            self.init(name: String(text[..<equals]), value: String(text[text.index(after: equals)...]))
        }
    }

    /// An instant as a search is given one: an RFC 3339 date-time
    /// (`2026-11-24T09:30:00+09:00`, `Z`, fractional seconds allowed), or
    /// `now`. Nil for anything else: a time without an offset names no
    /// instant; a year of other than four digits, a field out of its range
    /// (February 30, 24:00) or an offset beyond ±18:00 is no date-time
    /// (`ISO8601DateFormatter` read `+99:00` and the year 99999).
    public static func instant(parsing text: String, now: Date = Date()) -> Date? {
        if text == "now" { return now }
        return RFC3339.instant(text)
    }

    /// The longest text searched for: longer than any store's name and
    /// address together, and a bound on the work one query can ask for.
    public static let maximumTextLength = 200
    public static let maximumLimit = 1_000

    public init(
        list: String, text: String? = nil, category: String? = nil, attributes: [AttributeFilter] = [],
        area: Area? = nil, openAt: Date? = nil, limit: Int = 20, cursor: SearchCursor? = nil
    ) {
        self.list = list
        self.text = text
        self.category = category
        self.attributes = attributes
        self.area = area
        self.openAt = openAt
        self.limit = limit
        self.cursor = cursor
    }

    /// Refuses what cannot be searched, in the library's words.
    package func validate() throws(CatalogError) {
        if let text {
            guard !text.isEmpty else { throw .invalidArgument("the search text is empty") }
            guard text.count <= Self.maximumTextLength else {
                throw .invalidArgument("the search text is longer than \(Self.maximumTextLength) characters")
            }
        }
        if let category, category.isEmpty { throw .invalidArgument("the category is empty") }
        for filter in attributes where filter.name.isEmpty {
            throw .invalidArgument("an attribute filter needs a name (got '=\(filter.value)')")
        }
        guard (1...Self.maximumLimit).contains(limit) else {
            throw .invalidArgument("the limit must be 1...\(Self.maximumLimit) (got \(limit))")
        }
        switch area {
        case let .near(origin, radius)?:
            guard origin.isValid else { throw .invalidArgument("\(origin) is not a valid latitude,longitude") }
            if let radius, !(radius >= 0) {
                throw .invalidArgument("the radius must be a distance of 0 or more (got \(radius))")
            }
        case .box?, nil:
            break
        }
        if let openAt, !openAt.timeIntervalSince1970.isFinite {
            throw .invalidArgument("the opening time is not a valid instant")
        }
    }

    /// The point results are ranked from: the search's point, or the box's
    /// centre (across the antimeridian, the centre of the short way round).
    var rankingOrigin: Coordinate? {
        switch area {
        case let .near(origin, _)?:
            return origin
        case let .box(box)?:
            let width = box.crossesAntimeridian ? box.east + 360 - box.west : box.east - box.west
            var longitude = box.west + width / 2
            if longitude > 180 { longitude -= 360 }
            return Coordinate(latitude: (box.south + box.north) / 2, longitude: longitude)
        case nil:
            return nil
        }
    }
}

/// Where a page of search results ends: the rank (distance in meters, or
/// nothing in list order) and the list position of its last store. The next
/// page starts strictly after it, so a page never repeats a store.
public struct SearchCursor: Sendable, Hashable, CustomStringConvertible {
    var distance: Double?
    var position: Int

    /// The cursor as a client passes it back: URL-safe text.
    public var description: String {
        let rank = distance.map { String($0.bitPattern, radix: 16) } ?? "-"
        return "\(rank).\(position)"
    }

    /// Reads a cursor given back by a client; nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 16, let position = Int(parts[1]), position >= 0 else { return nil }
        if parts[0] == "-" {
            distance = nil
        } else {
            guard let bits = UInt64(parts[0], radix: 16) else { return nil }
            let value = Double(bitPattern: bits)
            guard value.isFinite, value >= 0 else { return nil }
            distance = value
        }
        self.position = position
    }

    init(distance: Double?, position: Int) {
        self.distance = distance
        self.position = position
    }
}

/// A page of search results.
public struct SearchPage: Sendable, Hashable {
    /// A store found, with its list position and, in a search with an
    /// area, its distance from the ranking point.
    public struct Hit: Sendable, Hashable {
        public var position: Int
        public var store: Store
        public var distanceMeters: Double?
    }

    public var hits: [Hit]
    /// The cursor of the next page; nil after the last.
    public var next: SearchCursor?
}
