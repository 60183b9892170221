import Foundation
import TestSupport
import Testing

@testable import StoreCatalog

/// `Catalog.search`: text, category, attributes, area, opening time and
/// pages, checked against plain filters over the same stores.
@Suite("Search")
struct SearchTests {
    /// Cafés in Seoul, Paris and Fiji (across the antimeridian), some with hours.
    static let stores: [Store] = [
        Store(
            id: "s0", name: "Café Mocha", latitude: 48.8698, longitude: 2.3316, address: "12 Rue de la Paix", category: "Café",
            attributes: ["opening_hours": "Mo-Fr 08:00-18:00", "timezone": "Europe/Paris"]),
        Store(
            id: "s1", name: "하늘커피 강남역점", latitude: 37.4979, longitude: 127.0276, address: "서울 강남구 강남대로 396", category: "카페",
            attributes: ["영업시간": "Mo-Su 07:00-23:00", "timezone": "Asia/Seoul", "seats": "33"]),
        Store(
            id: "s2", name: "하늘커피 역삼점", latitude: 37.5007, longitude: 127.0365, address: "서울 강남구 테헤란로 152", category: "카페",
            attributes: ["hours": "Mo-Fr 22:00-02:00", "timezone": "Asia/Seoul", "seats": "46"]),
        Store(id: "s3", name: "Bäckerei Straße", latitude: 48.8606, longitude: 2.3376, address: "Rue de Rivoli", category: "Bakery"),
        Store(
            id: "s4", name: "Suva Coffee", latitude: -18.1416, longitude: 178.4419, category: "café",
            attributes: ["opening_hours": "24/7", "timezone": "Pacific/Fiji"]),
        Store(
            id: "s5", name: "Taveuni Cafe", latitude: -16.85, longitude: -179.97, category: "Café",
            attributes: ["opening_hours": "Mo-Fr 08:00-18:00"]),  // no zone: never open
        Store(
            id: "s6", name: "하늘커피 선릉점", latitude: 37.5045, longitude: 127.049, category: "카페",
            attributes: ["seats": "33", "opening_hours": "not hours at all", "timezone": "Asia/Seoul"]),
    ]

    static func catalog() throws -> Catalog {
        let catalog = try Catalog.inMemory()
        try catalog.importList(named: "cafes", from: ArrayRowReader(stores: stores))
        try catalog.importList(
            named: "other",
            from: ArrayRowReader(stores: [
                Store(id: "o0", name: "Café Elsewhere", latitude: 37.5, longitude: 127.03, category: "Café")
            ]))
        return catalog
    }

    private func ids(_ page: SearchPage) -> [String] { page.hits.map(\.store.id) }

    @Test("text matches any part of the name, address or category, case and accents ignored, in list order")
    func textSearch() throws {
        let catalog = try Self.catalog()
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "cafe"))) == ["s0", "s4", "s5"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "strasse"))) == ["s3"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "강남"))) == ["s1", "s2"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "RIVOLI"))) == ["s3"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "nowhere"))) == [])
        #expect(ids(try catalog.search(StoreSearch(list: "other", text: "cafe"))) == ["o0"])
    }

    @Test("category and attribute filters combine with the text, all of them required")
    func filtersCombine() throws {
        let catalog = try Self.catalog()
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", category: "CAFE"))) == ["s0", "s4", "s5"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", category: "카페"))) == ["s1", "s2", "s6"])
        let seats = StoreSearch.AttributeFilter(name: "seats", value: "33")
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", category: "카페", attributes: [seats]))) == ["s1", "s6"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "강남", attributes: [seats]))) == ["s1"])
    }

    @Test("near ranks by distance within the radius; a box ranks from its centre, across the antimeridian too")
    func areasRankByDistance() throws {
        let catalog = try Self.catalog()
        let gangnam = Coordinate(latitude: 37.4979, longitude: 127.0276)
        let near = try catalog.search(StoreSearch(list: "cafes", area: .near(gangnam, withinMeters: 3_000)))
        #expect(ids(near) == ["s1", "s2", "s6"])
        #expect(near.hits.map { $0.distanceMeters! } == near.hits.map { Haversine.distance(gangnam, $0.store.coordinate) })
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", area: .near(gangnam, withinMeters: 0)))) == ["s1"])

        // Paris: the box's centre is nearer Rivoli than the Rue de la Paix.
        let paris = try BoundingBox(south: 48.85, west: 2.32, north: 48.875, east: 2.35)
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", area: .box(paris)))) == ["s3", "s0"])
        // Fiji, both sides of the antimeridian: Taveuni is nearer the centre (-17.5, 180).
        let fiji = try BoundingBox(south: -19, west: 177, north: -16, east: -177)
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", area: .box(fiji)))) == ["s5", "s4"])
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "coffee", area: .box(fiji)))) == ["s4"])
    }

    @Test("open at an instant on each store's own wall clock; stores without hours or zone never match")
    func openAt() throws {
        let catalog = try Self.catalog()
        // Monday 2026-11-23 23:30 UTC is Tuesday 08:30 in Seoul, 00:30 in
        // Paris (closed), Tuesday 12:30 in Fiji.
        let instant = try #require(ISO8601DateFormatter().date(from: "2026-11-23T23:30:00Z"))
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", openAt: instant))) == ["s1", "s4"])
        // Monday 17:30 UTC is Tuesday 02:30 in Seoul (s2's Monday night has
        // ended) and 18:30 in Paris (closed); 16:30 UTC is 01:30 in Seoul.
        let late = try #require(ISO8601DateFormatter().date(from: "2026-11-23T16:30:00Z"))
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", category: "카페", openAt: late))) == ["s2"])
    }

    @Test("pages follow each other through the cursor, each store once, in rank order", arguments: [1, 2, 3, 5])
    func pagesCoverEverything(limit: Int) throws {
        let catalog = try Self.catalog()
        for area in [nil, StoreSearch.Area.near(Coordinate(latitude: 10, longitude: 100), withinMeters: nil)] {
            let whole = ids(try catalog.search(StoreSearch(list: "cafes", area: area, limit: 100)))
            #expect(whole.count == Self.stores.count)
            var seen: [String] = []
            var cursor: SearchCursor?
            repeat {
                let page = try catalog.search(StoreSearch(list: "cafes", area: area, limit: limit, cursor: cursor))
                #expect(page.hits.count <= limit)
                seen += ids(page)
                // The cursor survives the trip through its text, as a client passes it back.
                cursor = try page.next.map { try #require(SearchCursor($0.description)) }
            } while cursor != nil
            #expect(seen == whole)
        }
    }

    @Test("a search sees the list as it is now, after a replace")
    func seesChanges() throws {
        let catalog = try Self.catalog()
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "mocha"))) == ["s0"])
        try catalog.importList(
            named: "cafes",
            from: ArrayRowReader(stores: [Store(id: "n0", name: "Mocha Two", latitude: 1, longitude: 2)]),
            options: ImportOptions(replace: true))
        #expect(ids(try catalog.search(StoreSearch(list: "cafes", text: "mocha"))) == ["n0"])
    }

    @Test(
        "what cannot be searched is refused in the library's words",
        arguments: [
            (StoreSearch(list: "cafes", text: ""), "empty"),
            (StoreSearch(list: "cafes", text: String(repeating: "a", count: 10_000)), "longer than 200"),
            (StoreSearch(list: "cafes", limit: 0), "limit"),
            (StoreSearch(list: "cafes", attributes: [.init(name: "", value: "x")]), "needs a name"),
            (StoreSearch(list: "cafes", area: .near(Coordinate(latitude: 91, longitude: 0), withinMeters: nil)), "valid"),
            (StoreSearch(list: "cafes", area: .near(Coordinate(latitude: 0, longitude: 0), withinMeters: -1)), "radius"),
            (StoreSearch(list: "nope", text: "a"), "nope"),
        ] as [(StoreSearch, String)])
    func refusals(search: StoreSearch, words: String) throws {
        let catalog = try Self.catalog()
        #expect { try catalog.search(search) } throws: { error in
            "\(error)".contains(words) && !"\(error)".contains("--")
        }
    }

    @Test("% and _ are plain characters, not patterns")
    func wildcardsAreLiteral() throws {
        let catalog = try Catalog.inMemory()
        try catalog.importList(
            named: "l",
            from: ArrayRowReader(stores: [
                Store(id: "a", name: "100% Coffee", latitude: 0, longitude: 0),
                Store(id: "b", name: "Coffee_Bar", latitude: 0, longitude: 0),
                Store(id: "c", name: "Coffee Bar", latitude: 0, longitude: 0),
            ]))
        #expect(ids(try catalog.search(StoreSearch(list: "l", text: "%"))) == ["a"])
        #expect(ids(try catalog.search(StoreSearch(list: "l", text: "e_b"))) == ["b"])
    }
}
