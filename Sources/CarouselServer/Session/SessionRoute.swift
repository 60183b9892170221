import Hummingbird
import HummingbirdWebSocket
import Logging
import MapSyncCatalog
import StoreCatalog
import Locks

/// `GET /lists/{name}/session`: the WebSocket upgrade into a ``LiveSession``.
///
/// A request without the upgrade, or for a list that does not exist, is not
/// upgraded and falls through to the HTTP router, which answers it with a
/// JSON error.
struct SessionRoute {
    let catalog: Catalog
    let limits: ServerLimits
    let sessions: SessionCounter

    func register(on router: Router<CarouselRequestContext>) {
        let catalog = catalog, limits = limits, sessions = sessions
        router.ws("/lists/{name}/session") { request, context in
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
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in lines { try await outbound.write(.text(line)) }
                }
                for try await message in inbound.messages(maxSize: limits.maxSessionMessage) {
                    switch message {
                    case .text(let text): session.receive(text)
                    case .binary: continuation.yield(LiveSession.errorLine("bad_message", "send text frames of JSON"))
                    }
                }
                continuation.finish()
                group.cancelAll()
            }
        }
    }

    /// The HTTP side of the session path: a plain GET is told to upgrade.
    func registerFallback(on router: Router<CarouselRequestContext>) {
        let catalog = catalog
        router.get("/lists/{name}/session") { request, context -> Response in
            let name = try request.pathParameter("name", context: context)
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
    private let counts = StateLock((open: 0, opened: 0))

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
