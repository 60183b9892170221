import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1

/// Answers a request the HTTP decoder cannot parse with a JSON error, then
/// closes the connection: 431 `headers_too_large` when its headers are
/// over the decoder's limits (by default Hummingbird's: 80 KiB in all and
/// 1,000 fields), 400 `bad_request` for anything else that is not
/// HTTP/1.1 (a garbage request line, a bad chunk size).
///
/// Without it the decoder's error reached the connection's handler, which
/// closed the socket without a word on a first request, or wrote a bare
/// 400 after the socket was already gone on a later one. It sits right
/// after the decoder (a decoder error reaches no handler before it), and
/// answers only when no response is under way — a 431 in the middle of
/// another response would corrupt it — as NIO's own
/// `HTTPServerProtocolErrorHandler` does. The answer must be written from
/// `errorCaught` itself: the decoder takes nothing more once it failed.
/// When the connection switches to WebSocket (its 101 passes here), the
/// handler leaves: what follows are frames, not HTTP.
///
/// It also holds each head to the rules only the HTTP/1 head shows (the
/// HTTP types above keep the first `Host` or `Origin` and drop the rest):
/// RFC 9112 §3.2's `Host` (an HTTP/1.1 request without one, or any with two),
/// one `Origin` at most (RFC 6454 §7.3), and RFC 6455 §4.2.1's WebSocket
/// handshake (a GET with `Connection: Upgrade`, one base64 key of 16 bytes,
/// version 13, else 426). A head that breaks one goes on marked with
/// ``refusedRequestHeader`` and stripped of `Upgrade`, and `APIMiddleware`
/// answers it with the JSON error — so it is logged and counted as every
/// request is, where hummingbird-websocket answered a bad handshake with a
/// bare 400 or a closed connection. An upgrade to anything but WebSocket
/// (`h2c`) is ignored, as RFC 9110 §7.8 lets a server: the request is
/// served as if it had not asked.
/// What is answered here (a head that cannot be parsed) is logged and
/// counted through a ``RefusalLog``.
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Marks a request whose head breaks the `Host` rule, with the
    /// problem in words; removed from what clients send.
    static let refusedRequestHeader = HTTPField.Name("X-Carousel-Refused-Request")!

    /// The decoder's limits, for the message.
    let maxHeaderBytes: Int
    let maxHeaderFields: Int
    let refusals: RefusalLog
    let logger: Logger
    /// Told when the 101 goes out: the connection's bytes become frames.
    let frameGuard: SessionFrameGuard?
    /// The method of the request being read, for the log.
    private var method: String?
    /// Whether a response's head has gone out and its end not yet.
    private var responding = false
    /// Whether the 101 went out: the handler leaves at the next flush.
    private var switching = false
    /// A request's head has gone up the pipeline and its end has not: a
    /// parser error now (a chunked body cut off by the idle timeout) must
    /// fail that request's body where the server reads it, not be answered
    /// as a new request (which would let the body end as if whole).
    private var readingBody = false
    /// The request being read asked for an upgrade (it has an `Upgrade`
    /// field, or is a `CONNECT`).
    private var upgradeAsked = false
    /// An upgrade request has been read: what comes now may be the bytes
    /// after it (see ``NIOAny/bytes``).
    private var afterUpgradeRequest = false

    init(maxHeaderBytes: Int, maxHeaderFields: Int, refusals: RefusalLog, logger: Logger, frameGuard: SessionFrameGuard? = nil) {
        self.frameGuard = frameGuard
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderFields = maxHeaderFields
        self.refusals = refusals
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // After an upgrade request the decoder parses no more: once it is
        // removed for the upgrade, it hands on what the client sent after
        // the request (the first frames of a client that does not wait for
        // the 101) as bytes, for the upgrade handler to replay. Taken for a
        // request part, they stopped the whole server (a fatal error in
        // NIO's unwrapping), so any client could.
        if afterUpgradeRequest, let bytes = data.bytes {
            // Frames: held to a session's rules as later ones are.
            if frameGuard?.framesBeforeSwitch(bytes) != false { context.fireChannelRead(data) }
            return
        }
        switch unwrapInboundIn(data) {
        case .head(var head):
            readingBody = true
            afterUpgradeRequest = false
            upgradeAsked = head.method == .CONNECT || head.headers.contains(name: "upgrade")
            method = head.method.rawValue
            head.headers.remove(name: Self.refusedRequestHeader.rawName)
            if let refusal = Self.hostProblem(head) ?? Self.originProblem(head) ?? Self.upgradeProblem(&head) {
                head.headers.add(name: Self.refusedRequestHeader.rawName, value: refusal.headerValue)
                // Answered by the router, never upgraded.
                head.headers.remove(name: "Upgrade")
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        case .body: break
        case .end:
            readingBody = false
            afterUpgradeRequest = upgradeAsked
        }
        context.fireChannelRead(data)
    }

    /// A head refused for the router to answer: its status, error code
    /// and message, carried in ``refusedRequestHeader`` as `STATUS CODE MESSAGE`.
    struct Refusal: Equatable {
        var status: Int
        var code: String
        var message: String

        init(_ status: Int, _ code: String, _ message: String) {
            self.status = status
            self.code = code
            self.message = message
        }

        var headerValue: String { "\(status) \(code) \(message)" }

        /// The refusal a marker carries; nil for one no handler made.
        init?(headerValue: String) {
            let parts = headerValue.split(separator: " ", maxSplits: 2)
            guard parts.count == 3, let status = Int(parts[0]), (400...499).contains(status) else { return nil }
            self.init(status, String(parts[1]), String(parts[2]))
        }
    }

    /// What is wrong with `head`'s `Host` fields (RFC 9112 §3.2: a server
    /// MUST answer 400 to an HTTP/1.1 request without one, and to any
    /// request with more than one); nil when nothing is. HTTP/1.0 needs none.
    static func hostProblem(_ head: HTTPRequestHead) -> Refusal? {
        switch head.headers["Host"].count {
        case 0 where head.version != .http1_0 && head.version != .http0_9:
            Refusal(400, "bad_request", "an HTTP/1.1 request needs a Host header")
        case 0, 1: nil
        default: Refusal(400, "bad_request", "the request has more than one Host header")
        }
    }

    /// Two `Origin` headers: a browser sends one (RFC 6454 §7.3), and a
    /// check of the first alone let a second, foreign one through.
    static func originProblem(_ head: HTTPRequestHead) -> Refusal? {
        head.headers["Origin"].count > 1 ? Refusal(400, "bad_request", "the request has more than one Origin header") : nil
    }

    /// What is wrong with an upgrade to WebSocket (RFC 6455 §4.2.1); an
    /// upgrade to anything else is dropped from `head` (RFC 9110 §7.8).
    static func upgradeProblem(_ head: inout HTTPRequestHead) -> Refusal? {
        let upgrades = head.headers[canonicalForm: "upgrade"].map { $0.lowercased() }
        guard !upgrades.isEmpty else { return nil }
        guard upgrades.contains("websocket") else {
            head.headers.remove(name: "Upgrade")
            let connection = head.headers[canonicalForm: "connection"].filter { $0.lowercased() != "upgrade" }
            head.headers.remove(name: "Connection")
            for token in connection { head.headers.add(name: "Connection", value: String(token)) }
            return nil
        }
        guard head.method == .GET, head.version == .http1_1 else {
            return Refusal(400, "bad_upgrade", "a WebSocket upgrade is an HTTP/1.1 GET (RFC 6455 §4.1)")
        }
        guard head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "upgrade" }) else {
            return Refusal(400, "bad_upgrade", "a WebSocket upgrade needs Connection: Upgrade")
        }
        let versions = head.headers["Sec-WebSocket-Version"]
        guard !versions.isEmpty else { return Refusal(400, "bad_upgrade", "a WebSocket upgrade needs Sec-WebSocket-Version: 13") }
        guard versions == ["13"] else {
            return Refusal(426, "unsupported_websocket_version", "the server speaks WebSocket version 13 (Sec-WebSocket-Version: 13)")
        }
        let keys = head.headers["Sec-WebSocket-Key"]
        guard keys.count == 1, let key = keys.first, Data(base64Encoded: key.trimmingCharacters(in: .whitespaces))?.count == 16 else {
            return Refusal(400, "bad_upgrade", "a WebSocket upgrade needs one Sec-WebSocket-Key: 16 random bytes in base64")
        }
        return nil
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? HTTPParserError, !readingBody else {
            context.fireErrorCaught(error)
            return
        }
        guard !responding else {
            context.close(promise: nil)
            return
        }
        let (status, body) = answer(to: error)
        refusals.refusedRequest(
            status: Int(status.code), method: method, client: context.channel.remoteAddress, reason: "\(error)", logger: logger)
        var bytes = context.channel.allocator.buffer(capacity: body.utf8.count)
        bytes.writeString(body)
        let head = HTTPResponseHead(
            version: .http1_1, status: status,
            headers: [
                "Content-Type": "application/json; charset=utf-8", "Content-Length": String(bytes.readableBytes), "Connection": "close",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in loopBound.value.close(promise: nil) }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head) where head.status == .switchingProtocols:
            // Left at the flush that follows, not here: a writeAndFlush
            // calls this handler's flush right after its write, and a
            // handler already removed would drop it (the 101 never sent).
            switching = true
        case .head(let head):
            // 1xx heads (100 Continue) are not the response.
            if head.status.code >= 200 { responding = true }
        case .body:
            break
        case .end:
            responding = false
        }
        context.write(data, promise: promise)
    }

    func flush(context: ChannelHandlerContext) {
        context.flush()
        if switching {
            frameGuard?.switchedToWebSocket()
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    /// The status and JSON body for a parse error.
    func answer(to error: HTTPParserError) -> (HTTPResponseStatus, String) {
        if error == .headerOverflow {
            return (
                .requestHeaderFieldsTooLarge,
                APIError(
                    .requestHeaderFieldsTooLarge, "headers_too_large",
                    "the request's headers are over the server's limit (\(maxHeaderBytes / 1024) KiB in all, \(maxHeaderFields) fields); "
                        + "send fewer or shorter ones"
                ).json
            )
        }
        return (.badRequest, APIError(.badRequest, "bad_request", "the request is not valid HTTP/1.1 (\(error))").json)
    }
}

extension NIOAny {
    /// The bytes this holds, when it holds a `ByteBuffer` rather than a
    /// decoded message. NIO has no public way to ask what a `NIOAny`
    /// holds, and unwrapping it as the wrong type is a fatal error, so its
    /// storage is looked at by reflection: a microsecond or two, asked only
    /// after an upgrade request, never on a plain request's path.
    var bytes: ByteBuffer? {
        guard case .byteBuffer(let bytes)? = Mirror(reflecting: self).descendant("_storage", "ioData") as? IOData else { return nil }
        return bytes
    }
}
