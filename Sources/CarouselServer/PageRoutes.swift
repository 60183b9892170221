import Hummingbird
import HummingbirdWebSocket

/// The page at `/` (HTML, JS, CSS compiled into the binary, so the server
/// runs from any directory) and the OpenAPI document at `/openapi.json`.
struct PageRoutes {
    func register(on router: Router<CarouselRequestContext>) {
        router.get("/") { _, _ in Self.file(PackageResources.index_html, type: "text/html; charset=utf-8") }
        router.get("/app.js") { _, _ in Self.file(PackageResources.app_js, type: "text/javascript; charset=utf-8") }
        router.get("/style.css") { _, _ in Self.file(PackageResources.style_css, type: "text/css; charset=utf-8") }
        router.get("/openapi.json") { _, _ in Self.file(PackageResources.openapi_json, type: "application/json; charset=utf-8") }
    }

    private static func file(_ bytes: [UInt8], type: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: type, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
