import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// `GET /stores/search`: the catalog's search over HTTP, every answer
/// checked against the OpenAPI document, bad input a 4xx JSON error.
@Suite struct SearchEndpointTests {
    static let template = "/stores/search"

    @Test func searchesPageAndRankAsTheCatalogDoes() async throws {
        let fixture = try ServerFixture()
        let catalog = fixture.catalog
        let expectedNear = try await catalog.search(
            StoreSearch(
                list: "seoul", area: .near(Coordinate(latitude: 37.5665, longitude: 126.978), withinMeters: 2_000), limit: 100))
        try await fixture.application.test(.router) { client in
            let text = try await client.checked(.get, "/stores/search?list=seoul&q=GAROSU", template: Self.template)
            #expect(text.status == 200)
            #expect((text.object["stores"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["hc-002"])
            #expect(text.object["next"] is NSNull)

            // Nearest first, with distances, page by page to the same answer.
            var found: [String] = []
            var cursor: String?
            repeat {
                let uri = "/stores/search?list=seoul&lat=37.5665&lng=126.978&withinKm=2&limit=2" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await client.checked(.get, uri, template: Self.template)
                #expect(page.status == 200)
                let stores = page.object["stores"] as? [[String: Any]] ?? []
                #expect(stores.allSatisfy { $0["distanceMeters"] is Double })
                found += stores.compactMap { $0["id"] as? String }
                cursor = page.object["next"] as? String
            } while cursor != nil && found.count < 100
            #expect(found == expectedNear.hits.map(\.store.id))
            #expect(!found.isEmpty)

            let filtered = try await client.checked(
                .get, "/stores/search?list=seoul&south=37.5&west=127&north=37.53&east=127.05&where=seats%3D46", template: Self.template)
            #expect((filtered.object["stores"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["hc-002"])
        }
    }

    @Test(
        arguments: [
            ("/stores/search?q=a", 400, "list is required"),
            ("/stores/search?list=seoul&q=", 400, "q is empty"),
            ("/stores/search?list=seoul&q=" + String(repeating: "x", count: 10_000), 414, "4096 bytes"),
            ("/stores/search?list=seoul&q=" + String(repeating: "x", count: 201), 400, "longer than 200"),
            ("/stores/search?list=seoul&where=seats", 400, "where takes KEY=VALUE"),
            ("/stores/search?list=seoul&lat=37&lng=127&south=1&west=2&north=3&east=4", 400, "not both"),
            ("/stores/search?list=seoul&openAt=yesterday", 400, "openAt must be an ISO 8601 instant"),
            ("/stores/search?list=seoul&cursor=nope", 400, "cursor is not one a page gave"),
            // What a probe sent: text after a NUL, a NUL alone, hexadecimal,
            // an offset and a year no RFC 3339 instant has.
            ("/stores/search?list=seoul&lat=37.5%00garbage&lng=127", 400, "lat cannot hold U+0000, a control character"),
            ("/stores/search?list=seoul&q=%00", 400, "q cannot hold U+0000, a control character"),
            ("/stores/search?list=seoul%00x&q=a", 400, "list cannot hold U+0000, a control character"),
            ("/stores/search?list=seoul&lat=0x1p3&lng=127", 400, "lat must be a finite decimal number"),
            ("/stores/search?list=seoul&lat=inf&lng=127", 400, "lat must be a finite decimal number"),
            ("/stores/search?list=seoul&lat=1e999&lng=127", 400, "lat must be a finite decimal number"),
            ("/stores/search?list=seoul&openAt=2026-11-28T13:30:00%2B99:00", 400, "openAt must be an ISO 8601 instant"),
            ("/stores/search?list=seoul&openAt=99999-11-28T13:30:00Z", 400, "openAt must be an ISO 8601 instant"),
            ("/stores/search?list=seoul&openAt=2026-02-30T13:30:00Z", 400, "openAt must be an ISO 8601 instant"),
            ("/stores/search?list=seoul&lat=37", 400, "lat and lng go together"),
            ("/stores/search?list=nope&q=a", 404, "no list named 'nope'"),
        ] as [(String, Int, String)])
    func badInputIsAJSONError(uri: String, status: Int, words: String) async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(.get, uri, template: Self.template)
            #expect(response.status == status)
            let message = (response.object["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.contains(words), "\(response.text)")
        }
    }
}
