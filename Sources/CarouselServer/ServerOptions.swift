/// How `carousel serve` faces its clients: who may read and write, which
/// origins and host names it answers, how it caches, and how much one
/// client may ask of it. Each has a `serve` flag and a `CAROUSEL_*`
/// variable; the defaults are safe on a shared network.
public struct ServerOptions: Sendable, Hashable {
    /// Whether reads need a token too (writes always do).
    public var requireTokenForReads = false
    /// Origins allowed to call from a browser (`https://app.example`),
    /// matched exactly; `*` lets any origin read, never write.
    public var corsOrigins: [String] = []
    /// The host names (without port) clients reach the server by, beyond
    /// loopback names and IP addresses, which are always answered.
    public var publicHosts: [String] = []
    /// `Cache-Control: max-age` of catalog reads, in seconds; 0 is
    /// `no-cache` (clients revalidate with `If-None-Match`).
    public var cacheMaxAge = 0
    /// Requests per second per client address (a token bucket whose burst
    /// is twice this); nil: no limit.
    public var rateLimit: Int?
    /// The most live sessions at once; the upgrade past it is 503.
    public var maxSessions = 1000
    /// A session with no message from its client for this long is closed; nil: never.
    public var sessionIdleTimeout: Duration?
    /// A connection whose request headers are not complete this long after
    /// it opened, or after its last answer, is closed; so is one whose
    /// request body stops coming for this long (the upload is aborted and
    /// nothing imported); nil: never.
    public var requestTimeout: Duration? = .seconds(10)
    /// The format of the request log.
    public var logFormat = LogFormat.text
    /// Whether each request is logged.
    public var logsRequests = true
    /// Whether `/metrics` is served and requests are counted.
    public var metrics = true

    /// The largest `--cache-max-age`: a year, the most RFC 9111 §5.2.2.1's
    /// examples use and beyond any catalog's life between imports.
    public static let maxCacheMaxAge = 31_536_000
    /// The largest `--rate-limit`: beyond what one core serves, so no
    /// real limit is cut; keeps 2N and N × seconds far from overflow.
    public static let maxRateLimit = 1_000_000

    public init() {}

    /// The request log's format.
    public enum LogFormat: String, Sendable, Hashable, CaseIterable {
        /// One line per request: `GET /lists 200 0.4 ms`.
        case text
        /// One JSON object per request.
        case json
    }
}
