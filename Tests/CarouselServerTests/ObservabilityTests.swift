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

    @Test func everyRefusalBelowTheRouterIsOneAttributableLineAndCounted() async throws {
        var options = ServerOptions()
        options.logFormat = .json
        let fixture = try ServerFixture(options: options)
        let lines = LogLines()
        try await fixture.server.application(host: "127.0.0.1", port: 0, logger: lines.logger).test(.live) { client in
            let port = try #require(client.port)
            let garbage = try await RawHTTP.exchange(port: port, "G@T /lists HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(garbage.status == 400)
            let big = try await RawHTTP.exchange(
                port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1"), ("X-Big", String(repeating: "b", count: 90 * 1024))]))
            #expect(big.status == 431)
            let noHost = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: []))
            #expect(noHost.status == 400)
            // A connection that says nothing and closes is no refusal.
            let silent = try await RawHTTP.exchange(port: port, "", readTimeout: 1)
            #expect(silent.status == 0)
            let metrics = try await client.execute(uri: "/metrics", method: .get)
            let text = String(buffer: metrics.body)
            #expect(text.contains(#"carousel_http_requests_total{route="Refused",method="-",status="400"} 1"#), "\(text)")
            #expect(text.contains(#"carousel_http_requests_total{route="Refused",method="-",status="431"} 1"#), "\(text)")
            // The missing Host went through the router: its own route.
            #expect(text.contains(#"route="/lists",method="GET",status="400"} 1"#), "\(text)")
        }
        let entries = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let refused = entries.filter { $0["route"] as? String == "Refused" }
        #expect(refused.map { $0["status"] as? Int } == [400, 431], "\(lines.all)")
        #expect(!entries.contains { $0["reason"] != nil && $0["route"] == nil }, "a silent connection was logged: \(lines.all)")
        for entry in refused {
            #expect(entry["client"] as? String == "127.0.0.1")
            #expect((entry["requestId"] as? String)?.count == 16)
            #expect(entry["level"] as? String == "info")
        }
        #expect(entries.contains { $0["path"] as? String == "/lists" && $0["status"] as? Int == 400 })
        #expect(!entries.contains { $0["level"] as? String == "error" }, "\(lines.all)")
    }

    @Test func aRefusedTLSHandshakeIsOneLineWithItsClientAndCounted() async throws {
        var options = ServerOptions()
        options.logFormat = .json
        let fixture = try ServerFixture(options: options)
        let certificate = fixture.directory.path("cert.pem"), key = fixture.directory.path("key.pem")
        try TLSTests.makeCertificate("refusals.carousel.test", certificate: certificate, key: key)
        let tls = try TLSCertificates(certificatePath: certificate.path, keyPath: key.path)
        let lines = LogLines()
        try await fixture.server.application(host: "127.0.0.1", port: 0, logger: lines.logger, tls: tls).test(.ahc(.https)) { client in
            let port = try #require(client.port)
            // Plain HTTP to the TLS port: no handshake can come of it.
            for _ in 0..<3 {
                _ = try await RawHTTP.exchange(port: port, RawHTTP.get("/lists", headers: [("Host", "127.0.0.1")]), readTimeout: 2)
            }
            // The refusal is counted by the connection's task once it
            // ended, which may come just after the client saw the close.
            var text = ""
            try await eventually {
                text = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
                return text.contains(#"carousel_connections_refused_total{reason="tls_handshake"} 3"#)
            }
            #expect(text.contains(#"carousel_connections_refused_total{reason="tls_handshake"} 3"#), "\(text)")
        }
        let entries = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let refused = entries.filter { $0["reason"] as? String == "tls_handshake" }
        #expect(refused.count == 3, "\(lines.all)")
        #expect(refused.allSatisfy { $0["client"] as? String == "127.0.0.1" && $0["level"] as? String == "info" })
        #expect(!entries.contains { $0["level"] as? String == "error" }, "\(lines.all)")
    }
}
