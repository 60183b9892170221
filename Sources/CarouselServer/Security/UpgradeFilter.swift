import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Turns a WebSocket upgrade the server refuses into a plain GET, before
/// the upgrade handler sees it, so that the HTTP router answers it — with
/// the status and JSON error its middlewares and the session route give
/// (421, 403 `origin_not_allowed`, 401 `token_required`, 503
/// `too_many_sessions`) — instead of hummingbird-websocket's bare 400 for
/// any upgrade not made.
///
/// It decides on the event loop, so only what needs no I/O: the host, the
/// origin, whether credentials are there and well-formed when reads need
/// them, the session cap. An unknown token is refused later, by
/// ``SessionGate`` in the upgrade route (a bare 400, the library's).
/// Only a connection's first request can be an upgrade: the handler then
/// leaves the pipeline.
final class UpgradeFilter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    /// Marks a refused upgrade for the session route, which answers 503
    /// when the cap was the reason. A client may send it itself: it then
    /// gets the 503 a refused upgrade would, nothing more.
    static let refusedUpgradeHeader = "X-Carousel-Refused-Upgrade"

    let policy: SitePolicy
    let requireCredentials: Bool
    let sessions: SessionCounter
    let maxSessions: Int

    init(policy: SitePolicy, requireCredentials: Bool, sessions: SessionCounter, maxSessions: Int) {
        self.policy = policy
        self.requireCredentials = requireCredentials
        self.sessions = sessions
        self.maxSessions = maxSessions
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        if head.headers[canonicalForm: "upgrade"].contains(where: { $0.lowercased() == "websocket" }), !admits(head) {
            head.headers.remove(name: "upgrade")
            head.headers.remove(name: "connection")
            head.headers.replaceOrAdd(name: Self.refusedUpgradeHeader, value: "1")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func admits(_ head: HTTPRequestHead) -> Bool {
        let authority = head.headers.first(name: "host")
        guard policy.answers(authority: authority) else { return false }
        if let origin = head.headers.first(name: "origin"), !policy.allows(origin: origin, authority: authority, write: false) {
            return false
        }
        if requireCredentials {
            let headerToken = head.headers.first(name: "authorization").map(CallerCredentials.parse)
            let queryToken = URI(head.uri).queryParameters["token"].map { CallerCredentials.isToken(String($0)) }
            switch (headerToken, queryToken) {
            case (.token?, _), (nil, true?): break
            default: return false
            }
        }
        return sessions.openCount < maxSessions
    }
}

/// The HTTP/1.1 channel with the WebSocket upgrade, an ``UpgradeFilter``
/// ahead of its upgrade handler.
struct FilteredUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let makeFilter: @Sendable () -> UpgradeFilter

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let upgrader = try channel.pipeline.syncOperations.handler(
                type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try channel.pipeline.syncOperations.addHandler(makeFilter(), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
