import CatalogServing
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import StoreCatalog
import WorkLanes

/// `carousel serve`: the catalog and live map sync over HTTP and WebSocket,
/// on Hummingbird 2, with the page at `/` that shows them working.
///
/// ```swift
/// let server = try CarouselServer(engine: try Catalog(path: "carousel.sqlite"))
/// try await server.application(host: "127.0.0.1", port: 8080).runService()
/// ```
///
/// The engine is either catalog (`CatalogEngine`): a SQLite file, or a
/// PostgreSQL database that several servers share. Nothing here asks
/// which: each server keeps what it holds in memory (the nearest-store
/// snapshot, entity tags, sessions' lists) in step with the engine's
/// `CatalogChangeWatch`, so a commit made through any server (or any
/// process) shows on all of them.
public struct CarouselServer: Sendable {
    public let engine: any ServingCatalog
    public var limits: ServerLimits
    /// Tokens, origins, caching, rate and session limits, logs, metrics.
    public let options: ServerOptions
    /// When set, `GET /constant` answers this many bytes of a fixed JSON
    /// body: the framework's ceiling that the server benchmark holds routes
    /// against (`serve`'s hidden `--constant-route-bytes`). Not part of the
    /// public API: a served catalog has no such route.
    package var constantRouteBytes: Int?
    /// The live sessions, counted.
    public let sessions = SessionCounter()
    /// The lists sessions and simulations show, read once per version.
    let sharedLists: SharedLists
    /// What sessions' debounces run on.
    let sessionClock: any Clock<Duration>
    /// The session cap, taken as upgrades are admitted.
    let sessionSlots: SessionSlots
    /// The catalog the routes read: on SQLite, the same file read on a
    /// connection per lane thread (`CatalogEngine.concurrentReader()`),
    /// so that reads run beside each other and beside an import; on
    /// PostgreSQL, `engine` itself. Writes go to `engine`.
    let reader: any ServingCatalog
    /// `GET /stores/near` from memory.
    let nearestAnswers: NearestAnswers
    let access: AccessControl
    let catalogVersion: CatalogVersion
    /// nil when metrics are off.
    let metrics: ServerMetrics?
    /// nil when there is no rate limit.
    let rateLimiter: RateLimiter?
    /// Session offsets' own limit (``SessionRoute/offsetLimiter``); nil
    /// when there is no rate limit.
    let sessionOffsetLimiter: RateLimiter?
    /// Closes the sessions of a revoked token.
    let sessionTokenWatch: SessionTokenWatch
    /// Whether the application serves TLS (set by `application(tls:)`):
    /// the server's own origin is then `https://`.
    var servesTLS = false

    /// How many stores and list items together the server holds in memory
    /// to answer `GET /stores/near` without SQLite: 10⁶, about 130 MiB at
    /// most (about 125 bytes each: 56 MiB for the 234,908 GeoNames places
    /// in one list). Held from the first such request on, not before.
    public static let standardNearestInMemoryEntries = 1_000_000

    /// Serves the catalog `engine` holds; `nearestInMemoryEntries` bounds
    /// the catalog that `GET /stores/near` answers from memory (0: always
    /// through the catalog). Throws when the catalog's change watch cannot
    /// be opened (its file, or its database, is unreachable).
    ///
    /// Live sessions' debounces run on `sessionClock`: the wall clock, or a
    /// test clock that a test advances.
    public init(
        engine: any ServingCatalog, limits: ServerLimits = ServerLimits(), options: ServerOptions = ServerOptions(),
        nearestInMemoryEntries: Int = standardNearestInMemoryEntries, sessionClock: any Clock<Duration> = ContinuousClock()
    ) throws {
        self.engine = engine
        self.options = options
        // Imports and cluster builds run behind the sessions (docs/concurrency.md).
        WorkLane.putLowLanesBehind()
        let reader = try engine.concurrentReader() ?? engine
        self.reader = reader
        access = AccessControl(reader: reader, engine: engine, requireTokenForReads: options.requireTokenForReads)
        catalogVersion = try CatalogVersion(engine: engine)
        metrics = options.metrics ? ServerMetrics() : nil
        rateLimiter = options.rateLimit.map { RateLimiter(rate: max(1, $0)) }
        sessionOffsetLimiter = options.rateLimit.map { RateLimiter(rate: max(240, $0)) }
        sessionTokenWatch = SessionTokenWatch(reader: reader)
        nearestAnswers = NearestAnswers(engine: reader, watch: catalogVersion.watch, maxEntries: nearestInMemoryEntries)
        sharedLists = SharedLists(engine: reader)
        self.sessionClock = sessionClock
        sessionSlots = SessionSlots(limit: options.maxSessions)
        self.limits = limits
    }

    /// Builds the in-memory snapshot that `GET /stores/near` answers from
    /// now, rather than in the background after the first request; false
    /// when the catalog is over `nearestInMemoryEntries` (or in memory)
    /// and SQLite answers.
    @discardableResult
    public func prepareNearestAnswers() async throws -> Bool {
        try await nearestAnswers.buildNow()
    }

    /// Starts building that snapshot in the background and returns at
    /// once, for a server that wants its first requests answered from
    /// memory (`carousel serve` waits for the first request instead).
    public func prepareNearestAnswersInBackground() async throws {
        try await nearestAnswers.prepareInBackground()
    }

    /// Returns once the snapshot build that
    /// ``prepareNearestAnswersInBackground()`` (or a request) started has
    /// ended, built or refused.
    package func nearestAnswersBackgroundBuildEnded() async {
        await nearestAnswers.backgroundBuildEnded()
    }

    /// Whether `GET /stores/near` is answered from memory for the
    /// catalog's current state (a commit since the snapshot was built
    /// sends requests to SQLite until the next one is).
    public func nearestAnswersAreInMemory() async throws -> Bool {
        try await nearestAnswers.isCurrent()
    }

    /// The HTTP routes (and the HTTP answer to a session path requested
    /// without an upgrade), every one behind `APIMiddleware`.
    public func router() -> Router<CarouselRequestContext> {
        // HEAD is answered wherever GET is (RFC 9110 §9.3.2), by
        // Hummingbird's own HEAD endpoints; APIMiddleware drops the body of
        // every other answer to a HEAD (an error's).
        let router = Router(context: CarouselRequestContext.self, options: .autoGenerateHeadEndpoints)
        // Outermost first: the log sees every answer, refusals included;
        // APIMiddleware turns whatever the inner ones throw into JSON.
        router.middlewares.add(RequestLogMiddleware(logs: options.logsRequests, json: options.logFormat == .json, metrics: metrics))
        router.middlewares.add(APIMiddleware(limits: limits))
        router.middlewares.add(SiteMiddleware(policy: SitePolicy(options: options, secure: servesTLS)))
        if let rateLimiter { router.middlewares.add(RateLimitMiddleware(limiter: rateLimiter)) }
        router.middlewares.add(AuthMiddleware(access: access))
        router.middlewares.add(
            CachingMiddleware(version: catalogVersion, maxAge: options.cacheMaxAge, privately: options.requireTokenForReads))
        PageRoutes().register(on: router)
        BasemapRoutes().register(on: router)
        HealthRoutes(reader: reader, metrics: metrics, sessions: sessions, version: catalogVersion).register(on: router)
        CatalogRoutes(reader: reader, nearestAnswers: nearestAnswers, limits: limits).register(on: router)
        SearchRoute(reader: reader, limits: limits).register(on: router)
        ChangesRoute(reader: reader, limits: limits).register(on: router)
        TileRoutes(reader: reader, limits: limits, secure: servesTLS).register(on: router)
        let metrics = metrics
        ImportRoute(
            engine: engine, limits: limits, gate: WorkGate("imports", limit: limits.maxConcurrentImports),
            onImport: { metrics?.recordImport(rows: $0.imported) }
        ).register(on: router)
        SimulateRoute(lists: sharedLists, limits: limits, gate: WorkGate("simulations", limit: limits.maxConcurrentSimulations))
            .register(on: router)
        SessionRoute(
            engine: reader, lists: sharedLists, clock: sessionClock, limits: limits, sessions: sessions, catalogVersion: catalogVersion
        )
        .registerFallback(on: router, maxSessions: sessionSlots.limit)
        if let constantRouteBytes {
            let body = ByteBuffer(bytes: Self.constantBody(bytes: constantRouteBytes))
            router.get("/constant") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
            }
        }
        return router
    }

    /// The WebSocket routes: `GET /lists/{name}/session`. They upgrade
    /// only what the server's channel admitted (its `UpgradeFilter`
    /// decides every upgrade before them).
    public func webSocketRouter() -> Router<CarouselRequestContext> {
        let router = Router(context: CarouselRequestContext.self)
        SessionRoute(
            engine: reader, lists: sharedLists, clock: sessionClock, limits: limits, sessions: sessions, catalogVersion: catalogVersion,
            tokenWatch: sessionTokenWatch, requestLimiter: rateLimiter, offsetLimiter: sessionOffsetLimiter
        ).register(on: router)
        return router
    }

    /// The application listening on `host`:`port` (0: any free port).
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        application(host: host, port: port, logger: logger, server: serverBuilder(), onServerRunning: onServerRunning)
    }

    /// The application serving HTTPS and WSS on `host`:`port` with the
    /// certificate `tls` holds (reloaded with it). Throws when the
    /// certificate and key do not make a TLS context (they do not match).
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil, tls: TLSCertificates,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        var secure = self
        secure.servesTLS = true
        let server = try HTTPServerBuilder.tls(secure.serverBuilder(), tlsConfiguration: tls.configuration)
        return secure.application(host: host, port: port, logger: logger, server: server, onServerRunning: onServerRunning)
    }

    private func application(
        host: String, port: Int, logger: Logger?, server: HTTPServerBuilder, onServerRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "carousel.serve")
        if logger.logLevel > .info { logger.logLevel = .info }
        let leftovers = Self.removeImportLeftovers()
        if leftovers > 0 { logger.info("removed \(leftovers) upload folders left by killed servers") }
        return Application(
            router: router(),
            server: server,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "carousel"),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    /// Removes the upload folders that killed servers left in `folder`
    /// (the temporary folder unless given); returns how many. The
    /// application does so as it starts.
    @discardableResult
    public static func removeImportLeftovers(in folder: URL = FileManager.default.temporaryDirectory) -> Int {
        ImportRoute.removeLeftovers(in: folder)
    }

    /// HTTP/1.1 with the WebSocket upgrade; the request timeout both as
    /// the idle timeout between requests and as the first head's deadline.
    private func serverBuilder() -> HTTPServerBuilder {
        let timeout = options.requestTimeout.map { TimeAmount.nanoseconds($0.nanoseconds) }
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: HTTP1Channel.Configuration(idleTimeout: timeout),
            // A text frame that is not UTF-8 closes the session with 1007
            // (RFC 6455 §8.1), before the session parses it.
            ws: WebSocketServerConfiguration(maxFrameSize: limits.maxSessionMessage, validateUTF8: true))
        let webSocketResponder = webSocketRouter().buildResponder()
        let refusals = RefusalLog(logsRequests: options.logsRequests, json: options.logFormat == .json, metrics: metrics)
        let gate = SessionGate(
            policy: SitePolicy(options: options, secure: servesTLS), access: access, reader: reader, slots: sessionSlots,
            requireCredentials: options.requireTokenForReads)
        return HTTPServerBuilder { responder in
            let channel = GuardedUpgradeChannel(
                base: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                decoder: configuration.http1.httpDecoder, gate: gate, refusals: refusals,
                sessionIdleTimeout: options.sessionIdleTimeout.map { TimeAmount.nanoseconds($0.nanoseconds) })
            guard let timeout else { return EventLoopServedChannel(base: channel) }
            return EventLoopServedChannel(base: HeaderDeadlineChannel(base: channel, timeout: timeout))
        }
    }

    /// `{"padding":"xxxx…"}` of exactly `bytes` bytes (at least its frame).
    static func constantBody(bytes: Int) -> [UInt8] {
        let frame = #"{"padding":""}"#
        return Array((#"{"padding":""# + String(repeating: "x", count: max(0, bytes - frame.utf8.count)) + #""}"#).utf8)
    }
}
