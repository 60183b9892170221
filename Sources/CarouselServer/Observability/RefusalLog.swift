import Logging
import NIOCore

/// The log entry and the count of what is refused below the router, where
/// ``RequestLogMiddleware`` never sees it: a request the HTTP decoder
/// cannot parse (400, 431), and a connection whose TLS handshake fails (a
/// cipher scan, an old client).
///
/// Without it a refused request was in neither the access log nor
/// `carousel_http_requests_total`, and a failed handshake left one `error`
/// line with no client (302 of them from one scan). Each refusal now makes
/// one `info` line that names the client, and one count: a request in
/// `carousel_http_requests_total` under the route `Refused`, a connection
/// in `carousel_connections_refused_total` by reason.
struct RefusalLog: Sendable {
    /// Whether refused requests are logged (the access log's switch).
    let logsRequests: Bool
    /// Whether the entry carries its fields as metadata (the JSON log).
    let json: Bool
    let metrics: ServerMetrics?

    /// The route label of refused requests in the metrics and the log.
    static let route = "Refused"

    /// A request answered `status` below the router.
    func refusedRequest(status: Int, method: String?, client: SocketAddress?, reason: String, logger: Logger) {
        let method = method ?? "-"
        metrics?.count(route: Self.route, method: method, status: status)
        guard logsRequests else { return }
        let id = RequestLogMiddleware<CarouselRequestContext>.requestID(nil)
        let client = client?.ipAddress ?? "unknown"
        let line: Logger.Message = "\(method) - \(status) refused from \(client): \(reason)"
        guard json else {
            logger.info(line, metadata: ["requestId": .string(id)])
            return
        }
        logger.info(
            line,
            metadata: [
                "requestId": .string(id), "method": .string(method), "route": .string(Self.route),
                "status": .stringConvertible(status), "client": .string(client), "reason": .string(reason),
            ])
    }

    /// A connection closed before its first request: `reason` is a word
    /// for the metric (`tls_handshake`), `detail` the error.
    func refusedConnection(client: SocketAddress?, reason: String, detail: String, logger: Logger) {
        metrics?.countRefusedConnection(reason: reason)
        let client = client?.ipAddress ?? "unknown"
        let line: Logger.Message = "connection from \(client) refused (\(reason)): \(detail)"
        guard json else {
            logger.info(line)
            return
        }
        logger.info(line, metadata: ["client": .string(client), "reason": .string(reason), "detail": .string(detail)])
    }
}
