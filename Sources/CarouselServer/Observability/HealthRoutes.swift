import CatalogServing
import Hummingbird
import StoreCatalog

/// The probes: `GET /healthz` (the process serves) and `GET /readyz` (the
/// catalog answers a query and is at this build's schema; else 503 with
/// the reason), and `GET /metrics`.
struct HealthRoutes {
    let reader: any ServingCatalog
    let metrics: ServerMetrics?
    let sessions: SessionCounter
    let version: CatalogVersion

    func register(on router: Router<CarouselRequestContext>) {
        router.get("/healthz") { _, _ in Response.json(#"{"status":"ok"}"#) }
        router.get("/readyz") { _, _ in await ready() }
        if let metrics {
            let sessions = sessions, version = version
            router.get("/metrics") { _, _ in
                let body = metrics.exposition(liveSessions: sessions.openCount, catalogVersion: try? await version.number())
                return Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                    body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
            }
        }
    }

    func ready() async -> Response {
        let latest = reader.latestSchemaVersion
        do {
            let version = try await reader.schemaVersion()
            guard version == latest else {
                return Self.notReady("the catalog is at schema \(version); this server needs \(latest)")
            }
            return .json("{\"status\":\"ready\",\"schemaVersion\":\(version)}")
        } catch {
            return Self.notReady("the catalog does not answer: \(error)")
        }
    }

    static func notReady(_ reason: String) -> Response {
        var response = Response.json(APIError(.serviceUnavailable, "not_ready", reason).json, status: .serviceUnavailable)
        response.headers[.retryAfter] = "5"
        return response
    }
}
