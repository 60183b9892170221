import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import StoreCatalog

/// `carousel serve`: the catalog and live map sync over HTTP and WebSocket,
/// on Hummingbird 2, with the page at `/` that shows them working.
///
/// ```swift
/// let server = CarouselServer(catalog: try Catalog(path: "carousel.sqlite"))
/// try await server.application(host: "127.0.0.1", port: 8080).runService()
/// ```
public struct CarouselServer: Sendable {
    public let catalog: Catalog
    public var limits: ServerLimits
    /// When set, `GET /constant` answers this many bytes of a fixed JSON
    /// body: the framework's ceiling that benchmarks hold routes against.
    public var constantRouteBytes: Int?
    /// The live sessions, counted.
    public let sessions = SessionCounter()
    /// The read endpoints' connections.
    let readers: CatalogReaders
    /// `GET /stores/near` from memory.
    let nearestAnswers: NearestAnswers

    /// How many stores and list items together the server holds in memory
    /// to answer `GET /stores/near` without SQLite: 10⁶, about 130 MiB at
    /// most (about 130 bytes each: 60 MiB for the 234,908 GeoNames places
    /// in one list).
    public static let standardNearestInMemoryEntries = 1_000_000

    /// Serves `catalog`; `nearestInMemoryEntries` bounds the catalog that
    /// `GET /stores/near` answers from memory (0: always through SQLite).
    public init(
        catalog: Catalog, limits: ServerLimits = ServerLimits(), constantRouteBytes: Int? = nil,
        nearestInMemoryEntries: Int = standardNearestInMemoryEntries
    ) {
        self.catalog = catalog
        readers = CatalogReaders(catalog: catalog)
        nearestAnswers = NearestAnswers(catalog: catalog, maxEntries: nearestInMemoryEntries)
        self.limits = limits
        self.constantRouteBytes = constantRouteBytes
    }

    /// Builds the in-memory snapshot that `GET /stores/near` answers from
    /// now, rather than in the background after the first request; false
    /// when the catalog is over `nearestInMemoryEntries` (or in memory)
    /// and SQLite answers.
    @discardableResult
    public func prepareNearestAnswers() throws -> Bool {
        try nearestAnswers.buildNow()
    }

    /// Starts building that snapshot in the background and returns at
    /// once: `carousel serve` does so as it starts.
    public func prepareNearestAnswersInBackground() throws {
        try nearestAnswers.prepareInBackground()
    }

    /// Whether `GET /stores/near` is answered from memory for the
    /// catalog's current state (a commit since the snapshot was built
    /// sends requests to SQLite until the next one is).
    public func nearestAnswersAreInMemory() throws -> Bool {
        try nearestAnswers.isCurrent()
    }

    /// The HTTP routes (and the HTTP answer to a session path requested
    /// without an upgrade), every one behind `APIMiddleware`.
    public func router() -> Router<CarouselRequestContext> {
        let router = Router(context: CarouselRequestContext.self)
        router.middlewares.add(APIMiddleware(limits: limits))
        PageRoutes().register(on: router)
        CatalogRoutes(readers: readers, nearestAnswers: nearestAnswers, limits: limits).register(on: router)
        SearchRoute(readers: readers, limits: limits).register(on: router)
        ImportRoute(catalog: catalog, limits: limits, gate: WorkGate("imports", limit: limits.maxConcurrentImports))
            .register(on: router)
        SimulateRoute(catalog: catalog, limits: limits, gate: WorkGate("simulations", limit: limits.maxConcurrentSimulations))
            .register(on: router)
        SessionRoute(catalog: catalog, limits: limits, sessions: sessions).registerFallback(on: router)
        if let constantRouteBytes {
            let body = ByteBuffer(bytes: Self.constantBody(bytes: constantRouteBytes))
            router.get("/constant") { _, _ in
                Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: body))
            }
        }
        return router
    }

    /// The WebSocket routes: `GET /lists/{name}/session`.
    public func webSocketRouter() -> Router<CarouselRequestContext> {
        let router = Router(context: CarouselRequestContext.self)
        SessionRoute(catalog: catalog, limits: limits, sessions: sessions).register(on: router)
        return router
    }

    /// The application listening on `host`:`port` (0: any free port).
    public func application(
        host: String = "127.0.0.1", port: Int = 8080, logger: Logger? = nil,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        var logger = logger ?? Logger(label: "carousel.serve")
        if logger.logLevel > .info { logger.logLevel = .info }
        let leftovers = Self.removeImportLeftovers()
        if leftovers > 0 { logger.info("removed \(leftovers) upload folders left by killed servers") }
        return Application(
            router: router(),
            server: .http1WebSocketUpgrade(
                webSocketRouter: webSocketRouter(),
                configuration: HTTP1WebSocketUpgradeChannel.Configuration(
                    ws: WebSocketServerConfiguration(maxFrameSize: limits.maxSessionMessage))),
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

    /// `{"padding":"xxxx…"}` of exactly `bytes` bytes (at least its frame).
    static func constantBody(bytes: Int) -> [UInt8] {
        let frame = #"{"padding":""}"#
        return Array((#"{"padding":""# + String(repeating: "x", count: max(0, bytes - frame.utf8.count)) + #""}"#).utf8)
    }
}
