import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// The catalog's read endpoints, answered as the CLI's --json documents,
/// and every kind of bad input answered 4xx with the JSON error object.
@Suite struct CatalogEndpointTests {
    @Test func listsNameEveryListWithItsCount() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(.get, "/lists", template: "/lists")
            #expect(response.status == 200)
            #expect(response.text == #"[{"name":"seoul","count":44}]"#)
        }
    }

    @Test func storesPageThroughTheListInCarouselOrderWithCursors() async throws {
        let fixture = try ServerFixture()
        let expected = try fixture.catalog.stores(list: "seoul").map(\.id)
        try await fixture.application.test(.router) { client in
            var ids: [String] = []
            var cursor: String?
            var pages = 0
            repeat {
                let uri = "/lists/seoul/stores?limit=10" + (cursor.map { "&cursor=\($0)" } ?? "")
                let response = try await client.checked(.get, uri, template: "/lists/{name}/stores")
                #expect(response.status == 200)
                ids += (response.object["stores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = response.object["next"] as? String
                pages += 1
            } while cursor != nil && pages < 10
            #expect(ids == expected)
            #expect(pages == 5)
        }
    }

    @Test func clustersCountEveryStoreAndNeverHideTheSelectedOne() async throws {
        let fixture = try ServerFixture()
        let template = "/lists/{name}/clusters"
        try await fixture.application.test(.router) { client in
            // The whole world at zoom 0: the markers' counts add up to the list.
            let world = try await client.checked(
                .get, "/lists/seoul/clusters?zoom=0&south=-85&west=-180&north=85&east=180", template: template)
            #expect(world.status == 200)
            let markers = try #require(try JSONSerialization.jsonObject(with: world.body) as? [[String: Any]])
            let total = markers.reduce(0) { $0 + (($1["type"] as? String) == "cluster" ? $1["count"] as? Int ?? 0 : 1) }
            #expect(total == 44)
            #expect(markers.contains { $0["type"] as? String == "cluster" })

            // With store 3 selected it is a marker of its own, and the rest still add up.
            let selected = try await client.checked(
                .get, "/lists/seoul/clusters?zoom=0&south=-85&west=-180&north=85&east=180&selected=3", template: template)
            let withSelection = try #require(try JSONSerialization.jsonObject(with: selected.body) as? [[String: Any]])
            #expect(withSelection.contains { $0["type"] as? String == "store" && $0["index"] as? Int == 3 && $0["id"] as? String == "hc-004" })
            let selectedTotal = withSelection.reduce(0) { $0 + (($1["type"] as? String) == "cluster" ? $1["count"] as? Int ?? 0 : 1) }
            #expect(selectedTotal == 44)

            for (query, status) in [
                ("zoom=25&south=37&west=126&north=38&east=128", 400), ("zoom=nan&south=37&west=126&north=38&east=128", 400),
                ("zoom=5&south=38&west=126&north=37&east=128", 400), ("zoom=5&south=37&west=126&north=38", 400),
                ("zoom=5&south=37&west=126&north=38&east=128&selected=-1", 400),
                ("zoom=5&south=37&west=126&north=38&east=128&selected=44", 404),
            ] {
                let response = try await client.checked(.get, "/lists/seoul/clusters?\(query)", template: template)
                #expect(response.status == status, "\(query)")
            }
            let unknown = try await client.checked(
                .get, "/lists/nowhere/clusters?zoom=5&south=37&west=126&north=38&east=128", template: template)
            #expect(unknown.status == 404)
        }
    }

    @Test func aCursorStaysValidWhenAnotherListChanges() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let first = try await client.checked(.get, "/lists/seoul/stores?limit=3", template: "/lists/{name}/stores")
            let next = try #require(first.object["next"] as? String)
            let other = try await client.checked(
                .post, "/lists/other/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(),
                body: "id,name,latitude,longitude\nx1,Elsewhere,10,20\n")
            #expect(other.status == 200)
            let second = try await client.checked(.get, "/lists/seoul/stores?limit=3&cursor=\(next)", template: "/lists/{name}/stores")
            let ids = (second.object["stores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids == Array(try fixture.catalog.stores(list: "seoul").map(\.id)[3..<6]))
        }
    }

    @Test func malformedCursorsAndLimitsAreRefusedWith400() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            for query in [
                "cursor=abc", "cursor=%ZZ", "cursor=cDE6LTE", "cursor=" + String(repeating: "A", count: 100),
                "limit=0", "limit=1001", "limit=1.5", "limit=ten", "limit=-3",
            ] {
                let response = try await client.checked(.get, "/lists/seoul/stores?\(query)", template: "/lists/{name}/stores")
                #expect(response.status == 400, "\(query): \(response.text)")
                #expect(response.errorCode == "bad_cursor" || response.errorCode == "bad_parameter")
            }
        }
    }

    @Test func attributesKeepTheirTypesInEveryAnswer() async throws {
        let fixture = try ServerFixture()
        let file = try fixture.directory.write(
            "typed.jsonl",
            #"{"id":"a","name":"A","lat":37.5,"lng":127,"code":12345678901234567890123,"price":4.50,"open":true,"none":null,"tags":["wifi",1],"meta":{"floor":2},"zip":"02134","empty":""}"#
                + "\n")
        try fixture.catalog.importList(named: "typed", from: makeStoreRowReader(for: file, format: .jsonl))
        let attributes =
            #""attributes":{"code":12345678901234567890123,"empty":"","meta":{"floor":2},"none":null,"open":true,"price":4.50,"tags":["wifi",1],"zip":"02134"}"#
        try await fixture.application.test(.router) { client in
            let store = try await client.checked(.get, "/stores/typed/a", template: "/stores/{list}/{id}")
            #expect(store.status == 200)
            #expect(store.text.contains(attributes), "\(store.text)")
            let page = try await client.checked(.get, "/lists/typed/stores", template: "/lists/{name}/stores")
            #expect(page.text.contains(attributes), "\(page.text)")
            let found = try await client.checked(.get, "/stores/search?list=typed&where=tags%3Dwifi", template: "/stores/search")
            #expect(found.status == 200)
            #expect(found.text.contains(attributes), "\(found.text)")
        }
    }

    @Test func aStoreIsFoundByListAndIdAndMissingOnesAre404() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let found = try await client.checked(.get, "/stores/seoul/hc-001", template: "/stores/{list}/{id}")
            #expect(found.status == 200)
            #expect(found.object["name"] as? String == "Haneul Coffee Gangnam Station")
            #expect(((found.object["attributes"] as? [String: Any])?["seats"] as? NSNumber)?.intValue == 33)
            let missingStore = try await client.checked(.get, "/stores/seoul/nope", template: "/stores/{list}/{id}")
            #expect(missingStore.status == 404)
            #expect(missingStore.errorCode == "store_not_found")
            let missingList = try await client.checked(.get, "/stores/nowhere/hc-001", template: "/stores/{list}/{id}")
            #expect(missingList.status == 404)
            #expect(missingList.errorCode == "list_not_found")
        }
    }

    @Test func nearAnswersTheNearestFirstWithDistances() async throws {
        let fixture = try ServerFixture()
        let expected = try fixture.catalog.nearest(to: Coordinate(latitude: 37.5, longitude: 127.03), limit: 3).map(\.store.id)
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(.get, "/stores/near?lat=37.5&lng=127.03&limit=3", template: "/stores/near")
            #expect(response.status == 200)
            #expect(response.array.compactMap { $0["id"] as? String } == expected)
            let distances = response.array.compactMap { $0["distanceMeters"] as? Double }
            #expect(distances.count == 3 && distances == distances.sorted())
            let within = try await client.checked(
                .get, "/stores/near?lat=37.5&lng=127.03&withinKm=0.001&list=seoul", template: "/stores/near")
            #expect(within.status == 200 && within.array.isEmpty)
        }
    }

    @Test func nearRefusesEveryBadParameter() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            for query in [
                "lng=127", "lat=37.5", "lat=abc&lng=127", "lat=91&lng=127", "lat=37&lng=-181", "lat=nan&lng=1",
                "lat=inf&lng=1", "lat=1e999&lng=1", "lat=1&lng=1&limit=0", "lat=1&lng=1&limit=5000",
                "lat=1&lng=1&withinKm=-1", "lat=1&lng=1&withinKm=x", "lat=1&lng=1&list=%20",
            ] {
                let response = try await client.checked(.get, "/stores/near?\(query)", template: "/stores/near")
                #expect(response.status == 400, "\(query): \(response.text)")
                #expect(response.errorCode == "bad_parameter")
            }
            let unknown = try await client.checked(.get, "/stores/near?lat=1&lng=1&list=nowhere", template: "/stores/near")
            #expect(unknown.status == 404)
        }
    }

    @Test func bboxAnswersTheStoresInsideAndRefusesBadBoxes() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let all = try await client.checked(
                .get, "/stores/bbox?south=37&west=126&north=38&east=128&list=seoul", template: "/stores/bbox")
            #expect(all.status == 200 && all.array.count == 44)
            let limited = try await client.checked(
                .get, "/stores/bbox?south=37&west=126&north=38&east=128&limit=5", template: "/stores/bbox")
            #expect(limited.array.count == 5)
            let crossing = try await client.checked(
                .get, "/stores/bbox?south=-10&west=170&north=10&east=-170", template: "/stores/bbox")
            #expect(crossing.status == 200 && crossing.array.isEmpty)
            for query in [
                "south=37&west=126&north=38", "south=38&west=126&north=37&east=128", "south=-91&west=0&north=0&east=1",
                "south=0&west=0&north=1&east=181", "south=a&west=0&north=1&east=1", "south=0&west=0&north=1&east=1&limit=0",
            ] {
                let response = try await client.checked(.get, "/stores/bbox?\(query)", template: "/stores/bbox")
                #expect(response.status == 400, "\(query): \(response.text)")
            }
        }
    }

    @Test func unknownPathsLongURLsAndPlainSessionRequestsGetJSONErrors() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let unknown = try await client.execute(uri: "/nowhere", method: .get)
            #expect(unknown.status == .notFound)
            #expect(String(buffer: unknown.body).contains(#""code":"not_found""#))
            let long = try await client.checked(
                .get, "/stores/near?lat=1&lng=1&list=" + String(repeating: "a", count: 5000), template: "/stores/near")
            #expect(long.status == 414)
            #expect(long.errorCode == "uri_too_long")
            let plain = try await client.checked(.get, "/lists/seoul/session", template: "/lists/{name}/session")
            #expect(plain.status == 400)
            #expect(plain.errorCode == "upgrade_required")
            let missing = try await client.checked(.get, "/lists/nowhere/session", template: "/lists/{name}/session")
            #expect(missing.status == 404)
        }
    }

    @Test func thePageItsAssetsAndTheOpenAPIDocumentAreServed() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let page = try await client.checked(.get, "/", template: "/")
            #expect(page.status == 200 && page.text.contains("<canvas id=\"map\""))
            let script = try await client.execute(uri: "/app.js", method: .get)
            #expect(String(buffer: script.body).contains("new WebSocket("))
            let document = try await client.checked(.get, "/openapi.json", template: "/openapi.json")
            let onDisk = try Data(contentsOf: Paths.packageRoot.appendingPathComponent("docs/openapi.json"))
            #expect(document.body == onDisk)
            #expect(document.object["openapi"] as? String == "3.1.0")
        }
    }

    @Test func theLiveServerAnswersOverRealSockets() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let lists = try await client.checked(.get, "/lists", template: "/lists")
            #expect(lists.text == #"[{"name":"seoul","count":44}]"#)
            let near = try await client.checked(.get, "/stores/near?lat=37.5&lng=127&limit=2", template: "/stores/near")
            #expect(near.array.count == 2)
            let bad = try await client.checked(.get, "/stores/near?lat=x&lng=1", template: "/stores/near")
            #expect(bad.status == 400)
        }
    }
}
