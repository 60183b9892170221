import CarouselServer
import Foundation
import HummingbirdTesting
import Testing

/// A session's `{"query": {…}}`: the carousel shows the search's results,
/// the same stores `GET /stores/search` answers; the focus stays on the
/// selected store when it is a result (no camera), else goes to the first.
@Suite(.serialized) struct SessionQueryTests {
    /// The ids `GET /stores/search?list=seoul&…` answers.
    static func searchIds(_ client: some TestClientProtocol, _ items: String) async throws -> [String] {
        let response = try await client.checked(.get, "/stores/search?list=seoul&\(items)", template: "/stores/search")
        #expect(response.status == 200, "\(response.text)")
        return ((response.object["stores"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    static func ids(_ line: [String: Any]) -> [String] {
        ((line["stores"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aQueryFillsTheCarouselWithTheSearchsResultsAndFocusesTheFirst() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let expected = try await Self.searchIds(client, "q=coffee&category=Coffee%20shop&lat=37.57&lng=126.98&limit=5")
            #expect(expected.count == 5)
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(SessionTests.layout))
                try await received.wait(for: "marker")
                try await outbound.write(
                    .text(#"{"query":{"q":"coffee","category":"Coffee shop","lat":37.57,"lng":126.98,"limit":5}}"#))
                try await received.wait(for: "results")
                try await received.wait(for: "marker", count: 2)
                try await received.wait(for: "scroll")
                let results = try #require(received.of("results").first?.line)
                #expect(results["count"] as? Int == 5)
                #expect(Self.ids(results) == expected)
                // hc-001, the first store of the list, is not the nearest to
                // Jongno: the focus moves to the first result, with its camera.
                #expect(expected.first != "hc-001")
                let marker = try #require(received.of("marker").last?.line)
                #expect(marker["index"] as? Int == 0)
                #expect(marker["storeId"] as? String == expected.first)
                #expect(received.of("camera").count == 2)
                #expect(received.of("camera").last?.line["storeId"] as? String == expected.first)
                #expect(received.of("scroll").last?.line["index"] as? Int == 0)
                #expect(received.of("scroll").last?.line["animated"] as? Bool == false)
                // Markers are the results': a tap past them is refused.
                try await outbound.write(.text(#"{"tapMarker":5}"#))
                try await received.wait(for: "error")
                #expect(received.of("error").count == 1)
            }
        }
    }

    @Test func theSelectedStoreStaysInFocusWithoutACameraWhenItIsAResultAndNullShowsTheListAgain() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let roasteries = try await Self.searchIds(client, "category=roastery")
            #expect(roasteries.count > 1 && roasteries.contains("hc-004"))
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(SessionTests.layout))
                try await received.wait(for: "marker")
                try await outbound.write(.text(#"{"tapMarker":3}"#))  // hc-004, a roastery
                try await received.wait(for: "marker", count: 2)
                try await received.wait(for: "camera", count: 2)
                let camerasBefore = received.of("camera").count

                try await outbound.write(.text(#"{"query":{"category":"roastery"}}"#))
                try await received.wait(for: "results")
                try await received.wait(for: "scroll", count: 2)
                #expect(Self.ids(try #require(received.of("results").first?.line)) == roasteries)
                let position = try #require(roasteries.firstIndex(of: "hc-004"))
                #expect(received.of("scroll").last?.line["index"] as? Int == position)
                try await Task.sleep(for: .milliseconds(400))
                #expect(received.of("camera").count == camerasBefore, "the focused store stayed: the camera does not move")

                try await outbound.write(.text(#"{"query":null}"#))
                try await received.wait(for: "scroll", count: 3)
                #expect(received.of("scroll").last?.line["index"] as? Int == 3, "back in the list, still on hc-004")
                #expect(received.of("results").count == 1, "null sends no results line")
                // Each reload selected hc-004's marker anew (the query's, then
                // the list's): the tap is the fifth.
                #expect(received.of("marker").count == 4)
                try await outbound.write(.text(#"{"tapMarker":40}"#))
                try await received.wait(for: "marker", count: 5)
                #expect(received.of("marker").last?.line["index"] as? Int == 40)
            }
        }
    }

    @Test func searchThisAreaRanksByDistanceFromTheBoxsCentre() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let box = "south=37.49&west=127.0&north=37.53&east=127.07"
            let expected = try await Self.searchIds(client, box)
            #expect(!expected.isEmpty)
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(SessionTests.layout))
                try await received.wait(for: "marker")
                try await outbound.write(.text(#"{"query":{"south":37.49,"west":127.0,"north":37.53,"east":127.07}}"#))
                try await received.wait(for: "results")
                let results = try #require(received.of("results").first?.line)
                #expect(Self.ids(results) == expected)
                #expect(results["count"] as? Int == expected.count)
            }
        }
    }

    @Test func aBadQueryIsAnErrorAndTheCarouselStaysAsItWas() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(SessionTests.layout))
                try await received.wait(for: "marker")
                let bad = [
                    #"{"query":{"lat":"x","lng":1}}"#, #"{"query":{"list":"other"}}"#, #"{"query":{"q":true}}"#,
                    #"{"query":{"limit":0}}"#, #"{"query":{"south":1}}"#, #"{"query":[1]}"#, #"{"query":{"q":["a","b"]}}"#,
                ]
                for message in bad { try await outbound.write(.text(message)) }
                try await received.wait(for: "error", count: bad.count)
                let messages = received.of("error").compactMap { ($0.line["error"] as? [String: Any])?["message"] as? String }
                #expect(messages.count == bad.count)
                #expect(messages[0] == "query: lat must be a finite decimal number (got 'x')")
                #expect(messages[1].hasPrefix("query: unknown item 'list'"))
                #expect(messages[3].hasPrefix("query: limit must be a whole number in 1..."))
                #expect(messages[4] == "query: a box needs south, west, north and east")
                #expect(received.of("results").isEmpty)
                try await outbound.write(.text(#"{"tapMarker":40}"#))
                try await received.wait(for: "scroll")
                #expect(received.of("scroll").last?.line["index"] as? Int == 40)
            }
        }
    }
}
