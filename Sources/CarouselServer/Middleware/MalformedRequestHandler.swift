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
/// It also holds each request to RFC 9112 §3.2's `Host` rule, which only
/// the HTTP/1 head shows (the HTTP types above keep the first `Host` as
/// the authority and drop the rest): an HTTP/1.1 request without `Host`,
/// or any request with more than one, goes on marked with
/// ``refusedRequestHeader`` and stripped of `Upgrade`, and `APIMiddleware`
/// answers it 400 — so it is logged and counted as every request is.
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

    init(maxHeaderBytes: Int, maxHeaderFields: Int, refusals: RefusalLog, logger: Logger) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderFields = maxHeaderFields
        self.refusals = refusals
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(var head):
            readingBody = true
            method = head.method.rawValue
            head.headers.remove(name: Self.refusedRequestHeader.rawName)
            if let problem = Self.hostProblem(head) {
                head.headers.add(name: Self.refusedRequestHeader.rawName, value: problem)
                // Answered by the router, never upgraded.
                head.headers.remove(name: "Upgrade")
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
            return
        case .body: break
        case .end: readingBody = false
        }
        context.fireChannelRead(data)
    }

    /// What is wrong with `head`'s `Host` fields (RFC 9112 §3.2: a server
    /// MUST answer 400 to an HTTP/1.1 request without one, and to any
    /// request with more than one); nil when nothing is. HTTP/1.0 needs none.
    static func hostProblem(_ head: HTTPRequestHead) -> String? {
        switch head.headers["Host"].count {
        case 0 where head.version != .http1_0 && head.version != .http0_9: "an HTTP/1.1 request needs a Host header"
        case 0, 1: nil
        default: "the request has more than one Host header"
        }
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
        if switching { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
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
