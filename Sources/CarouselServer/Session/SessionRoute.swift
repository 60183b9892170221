import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import MapSyncCatalog
import ServiceLifecycle
import StoreCatalog
import Synchronization

/// `GET /lists/{name}/session`: the WebSocket upgrade into a ``LiveSession``.
///
/// A request without the upgrade, or for a list that does not exist, is not
/// upgraded and falls through to the HTTP router, which answers it with a
/// JSON error.
struct SessionRoute {
    let catalog: Catalog
    let limits: ServerLimits
    let sessions: SessionCounter
    /// Who may open a session; nil: anyone.
    var gate: SessionGate? = nil
    /// A session whose client sends nothing for this long is closed.
    var idleTimeout: Duration? = nil

    func register(on router: Router<CarouselRequestContext>) {
        let catalog = catalog, limits = limits, sessions = sessions, gate = gate, idleTimeout = idleTimeout
        router.ws("/lists/{name}/session") { request, context in
            if let gate, await !gate.admits(request) { return .dontUpgrade }
            guard let name = try? request.pathParameter("name", context: context),
                (try? await Offload.run({ try catalog.count(list: name) })) != nil
            else { return .dontUpgrade }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            guard let name = context.requestContext.parameters.get("name")?.removingPercentEncoding else { return }
            let stores = try await Offload.run { try CatalogStoreDirectory(catalog: catalog, list: name) }
            let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1024))
            let number = sessions.open()
            let session = LiveSession(stores: stores, label: "carousel.session.\(number)") { continuation.yield($0) }
            context.logger.info("session opened", metadata: ["list": "\(name)", "session": "\(number)"])
            defer {
                context.requestContext.releaseWebSocket()
                session.close()
                continuation.finish()
                sessions.close()
                context.logger.info("session closed", metadata: ["list": "\(name)", "session": "\(number)"])
            }
            let idleClock = SessionIdleClock()
            try await withGracefulShutdownHandler {
              try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in lines { try await outbound.write(.text(line)) }
                }
                if let idleTimeout {
                    group.addTask {
                        while true {
                            let deadline = idleClock.deadline(after: idleTimeout)
                            if ContinuousClock.now >= deadline {
                                try await outbound.close(.normalClosure, reason: "idle")
                                return
                            }
                            try await Task.sleep(until: deadline)
                        }
                    }
                }
                for try await message in inbound.messages(maxSize: limits.maxSessionMessage) {
                    idleClock.touch()
                    switch message {
                    case .text(let text): session.receive(text)
                    case .binary: continuation.yield(LiveSession.errorLine("bad_message", "send text frames of JSON"))
                    }
                }
                continuation.finish()
                group.cancelAll()
              }
            } onGracefulShutdown: {
                // 1001, "going away": the server stops, the client may
                // reconnect elsewhere (RFC 6455 §7.4.1).
                Task { try? await outbound.close(.goingAway, reason: "server stopping") }
            }
        }
    }

    /// The HTTP side of the session path: a plain GET is told to upgrade.
    func registerFallback(on router: Router<CarouselRequestContext>, maxSessions: Int = .max) {
        let catalog = catalog, sessions = sessions
        router.get("/lists/{name}/session") { request, context -> Response in
            let name = try request.pathParameter("name", context: context)
            if request.headers[HTTPField.Name(UpgradeFilter.refusedUpgradeHeader)!] != nil, sessions.openCount >= maxSessions {
                var response = Response.json(
                    APIError(.serviceUnavailable, "too_many_sessions", "the server holds \(maxSessions) sessions, its most; retry later").json,
                    status: .serviceUnavailable)
                response.headers[.retryAfter] = "5"
                return response
            }
            do {
                _ = try await Offload.run { try catalog.count(list: name) }
            } catch let error as CatalogError {
                throw APIError(error)
            }
            throw APIError(.badRequest, "upgrade_required", "this path is a WebSocket: connect with an Upgrade: websocket request")
        }
    }
}

/// How many sessions are open now, and a number for each new one.
public final class SessionCounter: Sendable {
    private let counts = Mutex((open: 0, opened: 0))

    public init() {}

    /// The sessions open now.
    public var openCount: Int { counts.withLock { $0.open } }

    func open() -> Int {
        counts.withLock { counts in
            counts.open += 1
            counts.opened += 1
            return counts.opened
        }
    }

    func close() {
        counts.withLock { $0.open -= 1 }
    }
}
