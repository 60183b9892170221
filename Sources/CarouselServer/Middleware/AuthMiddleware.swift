import Hummingbird

/// Lets through only the requests ``AccessControl`` allows: 401 with
/// `WWW-Authenticate: Bearer` for missing or malformed credentials, 403
/// for a token of the wrong scope or when writes are disabled.
struct AuthMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: AccessControl

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let scope = access.scopeNeeded(for: request) else { return try await next(request, context) }
        do {
            // The `token` query item only where a browser cannot set a header: a session.
            try await access.check(request, scope: scope, allowQueryItem: request.uri.path.hasSuffix("/session"))
        } catch let refusal as AccessControl.Refusal {
            return refusal.response
        }
        return try await next(request, context)
    }
}
