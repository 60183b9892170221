import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL

/// hummingbird-websocket's HTTP/1.1 channel with the WebSocket upgrade,
/// and handlers of ours right after its HTTP decoder: a
/// ``MalformedRequestHandler`` (a JSON 431 or 400 for what the decoder
/// cannot parse, the `Host` rule), a ``FirstRequestWatch`` (a connection
/// that ends before its first request is handed on to nothing, and logged
/// with its client when it failed), and an ``UpgradeFilter`` ahead of the
/// upgrade handler (a JSON answer for every refused upgrade, the session
/// cap held exactly).
struct GuardedUpgradeChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let base: HTTP1WebSocketUpgradeChannel.Value
        let start: EventLoopFuture<FirstRequestWatch.Outcome>
        var channel: any Channel { base.channel }
    }
    let base: HTTP1WebSocketUpgradeChannel
    let decoder: HTTP1Channel.Configuration.DecoderConfiguration
    let gate: SessionGate
    let refusals: RefusalLog
    /// `--session-idle-timeout` (``SessionFrameGuard``).
    let sessionIdleTimeout: TimeAmount?

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoderHandler = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let upgrader = try pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            // Before the decoder: after the upgrade it sees the frames' bytes.
            let frameGuard = SessionFrameGuard(idleTimeout: sessionIdleTimeout)
            try pipeline.addHandler(frameGuard, position: .before(decoderHandler))
            let malformed = MalformedRequestHandler(
                maxHeaderBytes: decoder.maxHeaderListSize, maxHeaderFields: decoder.maxHeaderFieldCount, refusals: refusals, logger: logger,
                frameGuard: frameGuard)
            try pipeline.addHandler(malformed, position: .after(decoderHandler))
            try pipeline.addHandler(UpgradeFilter(gate: gate), position: .before(upgrader))
            let watch = FirstRequestWatch(promise: channel.eventLoop.makePromise())
            // After the malformed-request handler, which answers (and
            // logs) the parse errors it sees; the watch sees the rest.
            try pipeline.addHandler(watch, position: .after(malformed))
            return Value(base: value, start: watch.outcome)
        }
    }

    /// A connection that fails before its first request (a TLS handshake
    /// refused: an old protocol version, no shared cipher suite, a scan)
    /// is logged here with its client and counted; hummingbird-websocket
    /// would log an `error` line with neither. The rest is the base's.
    func handle(value: Value, logger: Logger) async {
        switch try? await value.start.get() {
        case .request?:
            await base.handle(value: value.base, logger: logger)
        case .closed(let error?, let client)?:
            refusals.refusedConnection(client: client, reason: Self.reason(error), detail: "\(error)", logger: logger)
        case .closed(nil, _)?, nil:
            // Closed before a request without an error (a port check, the
            // header deadline, a parse error already answered): nothing more.
            break
        }
    }

    /// The metric's word for why a connection failed.
    static func reason(_ error: any Error) -> String {
        error is NIOSSLError || error is BoringSSLError ? "tls_handshake" : "connection_error"
    }
}
