import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird-websocket's HTTP/1.1 channel with the WebSocket upgrade,
/// and two handlers of ours right after its HTTP decoder: a
/// ``MalformedRequestHandler`` (a JSON 431 or 400 for what the decoder
/// cannot parse) and an ``UpgradeFilter`` ahead of the upgrade handler (a
/// JSON answer for every refused upgrade, the session cap held exactly).
struct GuardedUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let base: HTTP1WebSocketUpgradeChannel
    let decoder: HTTP1Channel.Configuration.DecoderConfiguration
    let gate: SessionGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        base.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let decoderHandler = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let upgrader = try pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try pipeline.addHandler(
                MalformedRequestHandler(maxHeaderBytes: decoder.maxHeaderListSize, maxHeaderFields: decoder.maxHeaderFieldCount),
                position: .after(decoderHandler))
            try pipeline.addHandler(UpgradeFilter(gate: gate), position: .before(upgrader))
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await base.handle(value: value, logger: logger)
    }
}
