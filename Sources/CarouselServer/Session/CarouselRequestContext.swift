import Hummingbird
import HummingbirdWebSocket
import Locks
import NIOCore

/// The request context of every route: hummingbird-websocket's
/// `BasicWebSocketRequestContext`, except that a WebSocket session lets go
/// of its handler reference when it ends.
///
/// Why: hummingbird-websocket 2.8.1 keeps the handler a WebSocket route
/// matched in a box the context holds, together with a copy of the context
/// itself (box → handler value → context → box), and nothing empties the
/// box after the upgrade: every session leaked its context, its channel's
/// and the handler's captures (LeakSanitizer, `scripts/sanitize address`).
/// Here the context reaches the box through a holder that
/// ``releaseWebSocket()`` empties when the session ends, which breaks the
/// cycle; everything else is the basic context's.
public struct CarouselRequestContext: RequestContext, WebSocketRequestContext, RemoteAddressContext {
    public var coreContext: CoreRequestContextStorage
    private let holder = Holder()
    /// The client's IP address (rate limits and logs key on it).
    public let clientAddress: String
    /// The connection: a live session's task runs on its event loop
    /// (``LiveSession``), and writes its lines to it.
    let channel: any Channel

    public init(source: Source) {
        coreContext = .init(source: source)
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
        channel = source.channel
    }

    public var webSocket: WebSocketHandlerReference<Self> {
        // Empty only after the session ended, when nothing asks any more.
        holder.reference.withLock { $0 } ?? WebSocketHandlerReference()
    }

    /// Drops the handler reference: call when the WebSocket session ends.
    public func releaseWebSocket() {
        holder.reference.withLock { $0 = nil }
    }

    private final class Holder: Sendable {
        let reference = StateLock<WebSocketHandlerReference<CarouselRequestContext>?>(WebSocketHandlerReference())
    }
}
