import CarouselServer
import Foundation
import HummingbirdTesting
import StoreCatalog
import TestSupport
import Testing

/// `POST /lists/{name}/import` and `POST /simulate`: the CLI's rules and
/// documents over HTTP, and their bad inputs answered 4xx.
@Suite struct WriteEndpointTests {
    static let csv = "id,name,latitude,longitude\nn1,North,37.6,127.0\nn2,South,37.4,127.0\n"

    @Test func anImportCreatesTheListAndAnswersTheCLIReport() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(
                .post, "/lists/two/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(response.status == 200)
            #expect(
                response.text == #"{"list":"two","imported":2,"rejected":0,"errors":[],"errorCount":0,"errorCounts":{},"stoppedEarly":false,"columnTypes":{}}"#)
            #expect(try fixture.catalog.stores(list: "two").map(\.id) == ["n1", "n2"])
        }
    }

    @Test func theFormatComesFromTheContentTypeWhenNotGiven() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let json = try await client.checked(
                .post, "/lists/j/import", template: "/lists/{name}/import", headers: fixture.writeHeaders(contentType: "application/json"),
                body: #"[{"id":"j1","name":"J","lat":1,"lng":2}]"#)
            #expect(json.status == 200)
            let unknown = try await client.checked(
                .post, "/lists/k/import", template: "/lists/{name}/import", headers: fixture.writeHeaders(contentType: "text/plain"), body: Self.csv)
            #expect(unknown.status == 400)
            let badFormat = try await client.checked(
                .post, "/lists/k/import?format=xls", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(badFormat.status == 400)
            let badFlag = try await client.checked(
                .post, "/lists/k/import?format=csv&replace=maybe", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(badFlag.status == 400)
        }
    }

    @Test func anExistingListIs409UnlessReplaced() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.router) { client in
            let again = try await client.checked(
                .post, "/lists/seoul/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(again.status == 409)
            #expect(again.errorCode == "list_exists")
            await #expect(try fixture.catalog.count(list: "seoul") == 44)
            let replaced = try await client.checked(
                .post, "/lists/seoul/import?format=csv&replace=true", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: Self.csv)
            #expect(replaced.status == 200)
            await #expect(try fixture.catalog.count(list: "seoul") == 2)
        }
    }

    @Test func badRowsImportNothingAndAnswer422WithTheReport() async throws {
        let fixture = try ServerFixture()
        let body = try String(contentsOf: Paths.sampleData.appendingPathComponent("bad-stores.csv"), encoding: .utf8)
        try await fixture.application.test(.router) { client in
            let rejected = try await client.checked(
                .post, "/lists/bad/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: body)
            #expect(rejected.status == 422)
            #expect(rejected.errorCode == "rows_rejected")
            let report = try #require((rejected.object["error"] as? [String: Any])?["report"] as? [String: Any])
            #expect(report["imported"] as? Int == 0)
            #expect((report["errors"] as? [Any])?.isEmpty == false)
            await #expect(try fixture.catalog.lists().map(\.name) == ["seoul"])

            let skipped = try await client.checked(
                .post, "/lists/bad/import?format=csv&skipInvalid=true", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: body)
            #expect(skipped.status == 200)
            #expect((skipped.object["rejected"] as? Int ?? 0) > 0)
            await #expect(try fixture.catalog.count(list: "bad") == skipped.object["imported"] as? Int)
        }
    }

    @Test func aBodyThatIsNoStoreFileIs422AndAnOversizedOneIs413() async throws {
        var limits = ServerLimits()
        limits.maxImportBody = 64
        let fixture = try ServerFixture(limits: limits)
        try await fixture.application.test(.router) { client in
            let noColumns = try await client.checked(
                .post, "/lists/x/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: "a,b\n1,2\n")
            #expect(noColumns.status == 422)
            #expect(noColumns.errorCode == "invalid_file")
            let notJSON = try await client.checked(
                .post, "/lists/x/import?format=json", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: "{")
            #expect(notJSON.status == 422)
            let large = try await client.checked(
                .post, "/lists/x/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(),
                body: Self.csv + String(repeating: "z1,Z,1,1\n", count: 20))
            #expect(large.status == 413)
            await #expect(try fixture.catalog.lists().map(\.name) == ["seoul"])
        }
    }

    @Test func aLiveImportStreamsItsBody() async throws {
        let fixture = try ServerFixture()
        // 5,000 rows (~190 KB): more than one chunk of the body stream.
        var rows = "id,name,latitude,longitude\n"
        for row in 0..<5000 { rows += "g\(row),Place \(row),\(Double(row % 170) - 85),\(Double(row % 350) - 175)\n" }
        let body = rows
        try await fixture.application.test(.live) { client in
            let response = try await client.checked(
                .post, "/lists/big/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(), body: body)
            #expect(response.status == 200)
            #expect(response.object["imported"] as? Int == 5000)
        }
        await #expect(try fixture.catalog.count(list: "big") == 5000)
    }

    @Test func simulateAnswersTheTimelineOfTheCLI() async throws {
        let fixture = try ServerFixture()
        let script = try String(contentsOf: Paths.sampleData.appendingPathComponent("scripts/demo.json"), encoding: .utf8)
        try await fixture.application.test(.router) { client in
            let response = try await client.checked(
                .post, "/simulate", template: "/simulate", body: #"{"list":"seoul","script":\#(script)}"#)
            #expect(response.status == 200)
            let lines = response.array
            #expect(lines.first?["type"] as? String == "camera")
            #expect(lines.first?["t"] as? Int == 0)
            #expect(lines.first?["storeId"] as? String == "hc-001")
            // The tap at 4000 ms on store 12 moves the map at once.
            #expect(lines.contains { $0["type"] as? String == "camera" && $0["t"] as? Int == 4000 && $0["index"] as? Int == 12 })
            let traced = try await client.checked(
                .post, "/simulate", template: "/simulate", body: #"{"list":"seoul","script":\#(script),"trace":true}"#)
            #expect(traced.array.contains { $0["type"] as? String == "frame" })
        }
    }

    @Test func simulateRefusesBadBodiesScriptsAndLists() async throws {
        var limits = ServerLimits()
        limits.maxJSONBody = 4096
        let fixture = try ServerFixture(limits: limits)
        try await fixture.application.test(.router) { client in
            for body in [
                "", "[]", "{", #"{"list":"seoul"}"#, #"{"script":{"events":[]}}"#, #"{"list":"seoul","script":[]}"#,
                #"{"list":"seoul","script":{"events":[]},"trace":1}"#, #"{"list":"seoul","script":{"events":[]},"x":1}"#,
            ] {
                let response = try await client.checked(.post, "/simulate", template: "/simulate", body: body)
                #expect(response.status == 400, "\(body): \(response.text)")
            }
            for script in [
                #"{"events":[{"at":0,"tapMaker":1}]}"#, #"{"events":[{"at":0,"tapMarker":99}]}"#,
                #"{"events":[{"at":1e9,"end":true}]}"#, #"{"events":[{"at":0,"drag":{"by":1,"durationMs":1e12}}]}"#,
                #"{"layout":{"viewport":-1},"events":[]}"#,
            ] {
                let response = try await client.checked(
                    .post, "/simulate", template: "/simulate", body: #"{"list":"seoul","script":\#(script)}"#)
                #expect(response.status == 422, "\(script): \(response.text)")
                #expect(response.errorCode == "bad_script")
            }
            let missing = try await client.checked(.post, "/simulate", template: "/simulate", body: #"{"list":"nowhere","script":{"events":[]}}"#)
            #expect(missing.status == 404)
            let large = try await client.checked(
                .post, "/simulate", template: "/simulate",
                body: #"{"list":"seoul","script":{"events":[]},"pad":""# + String(repeating: " ", count: 5000) + "\"}")
            #expect(large.status == 413)
        }
    }
}
