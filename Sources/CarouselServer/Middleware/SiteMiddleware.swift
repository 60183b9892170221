import HTTPTypes
import Hummingbird

/// Refuses a `Host` the server does not answer for (421), answers CORS
/// preflights, refuses a write from a foreign origin (403), and adds the
/// CORS headers an allowed origin gets.
struct SiteMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: SitePolicy

    /// How long a browser may keep a preflight's answer: 10 minutes
    /// (Chromium's own cap is 2 hours, Firefox's 24).
    static var preflightMaxAge: String { "600" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authority = request.head.authority
        guard policy.answers(authority: authority) else {
            throw APIError(
                .misdirectedRequest, "host_not_allowed",
                "this server does not answer for host '\(authority?.prefix(100) ?? "")'; an operator adds it as a public host")
        }
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let write = Self.isWrite(request)
        if request.method == .options, let asked = request.headers[.accessControlRequestMethod] {
            // A preflight: the method it asks for decides read or write.
            let askedWrite = Self.isWrite(method: HTTPRequest.Method(asked) ?? .post, path: request.uri.path)
            guard policy.allows(origin: origin, authority: authority, write: askedWrite),
                let allowed = policy.allowOriginHeader(for: origin, write: askedWrite) ?? (policy.isOwn(origin: origin, authority: authority) ? origin : nil)
            else {
                throw APIError(.forbidden, "origin_not_allowed", "origin '\(origin.prefix(100))' may not \(askedWrite ? "write" : "read") here")
            }
            var response = Response(status: .noContent)
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlAllowMethods] = "GET, HEAD, POST, OPTIONS"
            response.headers[.accessControlAllowHeaders] = "Authorization, Content-Type, If-None-Match, X-Request-Id"
            response.headers[.accessControlMaxAge] = Self.preflightMaxAge
            response.headers[.vary] = "Origin"
            return response
        }
        if write, !policy.allows(origin: origin, authority: authority, write: true) {
            throw APIError(.forbidden, "origin_not_allowed", "origin '\(origin.prefix(100))' may not write here")
        }
        // A session upgrade that SessionGate refused for its origin ends here.
        if request.headers[HTTPField.Name(UpgradeFilter.refusedUpgradeHeader)!] != nil, !policy.allows(origin: origin, authority: authority, write: false) {
            throw APIError(.forbidden, "origin_not_allowed", "origin '\(origin.prefix(100))' may not open a session here")
        }
        var response = try await next(request, context)
        if let allowed = policy.allowOriginHeader(for: origin, write: write) {
            response.headers[.accessControlAllowOrigin] = allowed
            response.headers[.accessControlExposeHeaders] = "ETag, Retry-After, X-Request-Id"
            if allowed != "*" { response.headers[.vary] = "Origin" }
        }
        return response
    }

    static func isWrite(_ request: Request) -> Bool { isWrite(method: request.method, path: request.uri.path) }

    /// Everything but GET, HEAD, OPTIONS and `POST /simulate` (which
    /// changes nothing) may change the catalog.
    static func isWrite(method: HTTPRequest.Method, path: String) -> Bool {
        switch method {
        case .get, .head, .options: false
        case .post where path == "/simulate": false
        default: true
        }
    }
}
