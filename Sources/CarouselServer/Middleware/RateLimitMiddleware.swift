import Hummingbird

/// 429 with `Retry-After` for a client over its rate (``RateLimiter``),
/// keyed by its address. The probes (`/healthz`, `/readyz`, `/metrics`)
/// are not counted: a load balancer polling them is never refused.
struct RateLimitMiddleware<Context: RequestContext & RemoteAddressContext>: RouterMiddleware {
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if path == "/healthz" || path == "/readyz" || path == "/metrics" { return try await next(request, context) }
        if let seconds = limiter.take(for: context.clientAddress) {
            var response = Response.json(
                APIError(.tooManyRequests, "rate_limited", "over \(Int(limiter.rate)) requests a second from this address; retry in \(seconds) s").json,
                status: .tooManyRequests)
            response.headers[.retryAfter] = String(seconds)
            return response
        }
        return try await next(request, context)
    }
}

/// A request context that knows the client's address.
protocol RemoteAddressContext {
    /// The client's IP address, or `unknown`.
    var clientAddress: String { get }
}
