import CatalogServing
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Locks
import Logging
import MapSyncCatalog
import NIOCore
import NIOWebSocket
import StoreCatalog

/// `GET /lists/{name}/session`: the WebSocket upgrade into a ``LiveSession``.
///
/// A request without the upgrade, or for a list that does not exist, is not
/// upgraded and falls through to the HTTP router, which answers it with a
/// JSON error.
struct SessionRoute {
    /// The catalog sessions read (the server's reader).
    let engine: any ServingCatalog
    /// The lists sessions show, shared among them.
    let lists: SharedLists
    /// What sessions' debounces run on: the wall clock, or a test's.
    let clock: any Clock<Duration>
    let limits: ServerLimits
    let sessions: SessionCounter
    /// The catalog's data version, which sessions watch to follow their
    /// lists.
    let catalogVersion: CatalogVersion
    /// Closes a session whose token is revoked while it is open.
    var tokenWatch: SessionTokenWatch? = nil
    /// With `--rate-limit N`, a client's session messages are limited as
    /// its requests are: a tap, a query, a layout or a map takes a token of
    /// the client's HTTP bucket (``requestLimiter``); offsets, which a
    /// scroll reports at the display's rate (60 or 120 a second), take from
    /// a bucket of their own, max(N, 240) a second (``offsetLimiter``). A
    /// message over its limit is answered `rate_limited` and not run.
    var requestLimiter: RateLimiter? = nil
    var offsetLimiter: RateLimiter? = nil

    func register(on router: Router<CarouselRequestContext>) {
        let engine = engine, lists = lists, clock = clock, limits = limits, sessions = sessions
        let tokenWatch = tokenWatch, requestLimiter = requestLimiter, offsetLimiter = offsetLimiter
        let shared = SharedDataVersion(version: catalogVersion)
        router.ws("/lists/{name}/session") { request, _ in
            // `UpgradeFilter` decided before this route ran: the host, the
            // origin, the token, the list and a slot under the cap. What it
            // refused never comes here; what it admitted is marked.
            request.headers[HTTPField.Name(UpgradeFilter.admittedUpgradeHeader)!] != nil ? .upgrade([:]) : .dontUpgrade
        } onUpgrade: { inbound, outbound, context in
            guard let name = context.requestContext.parameters.get("name")?.removingPercentEncoding else { return }
            let (stores, follower) = try await ListFollower.start(engine: engine, list: name, shared: shared, lists: lists)
            let channel = context.requestContext.channel
            let writer = SessionLineWriter(channel: channel)
            let session = LiveSession(
                stores: stores, engine: engine, follower: follower, limits: limits, clock: clock,
                executor: EventLoopTaskExecutor.of(channel.eventLoop)
            ) {
                writer.send($0)
            }
            let client = context.requestContext.clientAddress
            @Sendable func received(_ message: SessionFrameReader.Message) {
                guard case .text(let text) = message else {
                    return writer.send(LiveSession.errorLine("bad_message", "send text frames of JSON"))
                }
                // Parsed once, here: the rate limit reads what it is.
                let input = Result { () throws(SessionInputError) in try SessionInput(text: text) }
                if let limiter = Self.limiter(of: input, requests: requestLimiter, offsets: offsetLimiter), limiter.take(for: client) != nil {
                    writer.send(
                        LiveSession.errorLine(
                            "rate_limited", "over \(Int(limiter.rate)) of these a second from this client; this one was not run"))
                    return
                }
                session.receive(input)
            }
            // The session's messages come straight off the connection
            // (``SessionFrameReader``, after the frame decoder) and its
            // lines go straight to it, one flush per turn of its loop
            // (``SessionLineWriter``, before the frame encoder); the
            // library does the handshakes.
            let reader = SessionFrameReader(maxMessage: limits.maxSessionMessage, deliver: received)
            try await channel.eventLoop.submit {
                let pipeline = channel.pipeline.syncOperations
                try writer.install(in: pipeline)
                let decoder = try pipeline.context(handlerType: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                try pipeline.addHandler(reader, position: .after(decoder.handler))
            }.get()
            let number = sessions.open { try? await outbound.close(.goingAway, reason: "server stopping") }
            context.logger.info("session opened", metadata: ["list": "\(name)", "session": "\(number)"])
            var watched: Int?
            if let tokenWatch, case .token(let token) = CallerCredentials(context.request, allowQueryItem: true) {
                watched = tokenWatch.watch(token: token) {
                    context.logger.info("session token revoked", metadata: ["list": "\(name)", "session": "\(number)"])
                    try? await outbound.close(.policyViolation, reason: "token revoked")
                }
            }
            defer {
                if let watched { tokenWatch?.stopWatching(watched) }
                context.requestContext.releaseWebSocket()
                session.close()
                writer.close()
                sessions.close(number)
                context.logger.info("session closed", metadata: ["list": "\(name)", "session": "\(number)"])
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                group.addTask {
                    // Between messages too: an idle client learns of a new
                    // list, and a deleted list ends its session.
                    while true {
                        try await Task.sleep(for: LiveSession.listCheckInterval)
                        if await session.followList() {
                            context.logger.info("session list gone", metadata: ["list": "\(name)", "session": "\(number)"])
                            try await outbound.close(.normalClosure, reason: "list deleted")
                            return
                        }
                    }
                }
                // What the library read before the reader came, then the
                // reader's marker; afterwards only the handshakes, which
                // the library answers itself.
                for try await message in inbound.messages(maxSize: limits.maxSessionMessage) {
                    switch message {
                    case .text(let text) where text == reader.marker: reader.libraryDrained()
                    case .text(let text): received(.text(text))
                    case .binary: received(.binary)
                    }
                }
                session.close()
                group.cancelAll()
            }
        }
    }

    /// The bucket a message takes from: offsets their own, the rest (a
    /// message that is not JSON too) the client's requests'; nil when
    /// there is no limit.
    static func limiter(of input: Result<SessionInput, SessionInputError>, requests: RateLimiter?, offsets: RateLimiter?) -> RateLimiter? {
        guard requests != nil || offsets != nil else { return nil }
        if case .success(.offset) = input { return offsets }
        return requests
    }

    /// The HTTP side of the session path: a plain GET is told to upgrade.
    func registerFallback(on router: Router<CarouselRequestContext>, maxSessions: Int = .max) {
        let engine = engine
        router.get("/lists/{name}/session") { request, context -> Response in
            let name = try request.pathParameter("name", context: context)
            if request.headers[HTTPField.Name(UpgradeFilter.refusedUpgradeHeader)!] == SessionGate.Refusal.tooManySessions.rawValue {
                var response = Response.json(
                    APIError(.serviceUnavailable, "too_many_sessions", "the server holds \(maxSessions) sessions, its most; retry later").json,
                    status: .serviceUnavailable)
                response.headers[.retryAfter] = "5"
                return response
            }
            do {
                _ = try await engine.count(list: name)
            } catch let error as CatalogError {
                throw APIError(error)
            }
            throw APIError(.badRequest, "upgrade_required", "this path is a WebSocket: connect with an Upgrade: websocket request")
        }
    }
}

/// How many sessions are open now, a number for each new one, and how to
/// close each (a graceful stop closes them all with 1001).
public final class SessionCounter: Sendable {
    private struct State {
        var opened = 0
        var closers: [Int: @Sendable () async -> Void] = [:]
    }
    private let state = StateLock(State())

    public init() {}

    /// The sessions open now.
    public var openCount: Int { state.withLock { $0.closers.count } }

    /// A new session, closed by `closer` on a graceful stop; its number.
    func open(closer: @escaping @Sendable () async -> Void) -> Int {
        state.withLock { state in
            state.opened += 1
            state.closers[state.opened] = closer
            return state.opened
        }
    }

    func close(_ number: Int) {
        _ = state.withLock { $0.closers.removeValue(forKey: number) }
    }

    /// Closes every open session, all at once.
    public func closeAll() async {
        let closers = state.withLock { Array($0.closers.values) }
        await withTaskGroup(of: Void.self) { group in
            for closer in closers { group.addTask { await closer() } }
        }
    }
}
