import CarouselServer
import Foundation
import HTTPTypes
import HummingbirdTesting
import StoreCatalog
import Testing

/// The probes, `/metrics` and the request log, against a running server.
@Suite struct ObservabilityTests {
    @Test func healthAndReadinessAnswer() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let health = try await client.checked(.get, "/healthz", template: "/healthz")
            #expect(health.status == 200)
            #expect(health.object["status"] as? String == "ok")
            let ready = try await client.checked(.get, "/readyz", template: "/readyz")
            #expect(ready.status == 200)
            #expect(ready.object["schemaVersion"] as? Int == Catalog.latestSchemaVersion)
        }
    }

    @Test func metricsCountRequestsByRouteTemplateAndImports() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            _ = try await client.execute(uri: "/lists/seoul/stores?limit=2", method: .get)
            _ = try await client.execute(uri: "/lists/nope/stores", method: .get)
            _ = try await client.execute(uri: "/no/such/path", method: .get)
            _ = try await client.checked(
                .post, "/lists/two/import?format=csv", template: "/lists/{name}/import", headers: fixture.writeHeaders(),
                body: "id,name,latitude,longitude\nn1,North,37.6,127.0\nn2,South,37.4,127.0\n")
            let metrics = try await client.checked(.get, "/metrics", template: "/metrics")
            #expect(metrics.status == 200)
            let text = metrics.text
            #expect(text.contains(#"carousel_http_requests_total{route="/lists/{name}/stores",method="GET",status="200"} 1"#), "\(text)")
            #expect(text.contains(#"carousel_http_requests_total{route="/lists/{name}/stores",method="GET",status="404"} 1"#))
            #expect(text.contains(#"route="NotFound",method="GET",status="404"} 1"#))
            #expect(text.contains(#"carousel_http_request_duration_seconds_bucket{route="/lists/{name}/stores""#))
            #expect(text.contains("carousel_imports_total 1"))
            #expect(text.contains("carousel_imported_rows_total 2"))
            #expect(text.contains("carousel_live_sessions 0"))
            #expect(text.contains("carousel_catalog_data_version "))
            #expect(text.contains("carousel_process_resident_memory_bytes "))
            // Raw paths never become labels.
            #expect(!text.contains("seoul") && !text.contains("nope") && !text.contains("/no/such"))
        }
    }

    @Test func eachRequestIsOneJSONLogEntryWithItsIdEchoed() async throws {
        var options = ServerOptions()
        options.logFormat = .json
        let fixture = try ServerFixture(options: options)
        let lines = LogLines()
        try await fixture.server.application(host: "127.0.0.1", port: 0, logger: lines.logger).test(.live) { client in
            let given = try await client.execute(
                uri: "/stores/near?lat=37.5&lng=127&limit=2", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "abc-123"])
            #expect(given.headers[HTTPField.Name("X-Request-Id")!] == "abc-123")
            let made = try await client.execute(uri: "/lists", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "bad id with spaces"])
            let id = try #require(made.headers[HTTPField.Name("X-Request-Id")!])
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
        }
        let entries = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.count == lines.all.count, "every line is one JSON object")
        let near = try #require(entries.first { $0["requestId"] as? String == "abc-123" })
        #expect(near["method"] as? String == "GET")
        #expect(near["route"] as? String == "/stores/near")
        #expect(near["path"] as? String == "/stores/near?lat&lng&limit")
        #expect(near["status"] as? Int == 200)
        #expect(near["durationMs"] is Double || near["durationMs"] is Int)
        #expect(near["client"] as? String == "127.0.0.1")
        #expect((near["bytes"] as? Int ?? 0) > 0)
        #expect(near["level"] as? String == "info")
        #expect((near["time"] as? String)?.hasSuffix("Z") == true)
    }
}
