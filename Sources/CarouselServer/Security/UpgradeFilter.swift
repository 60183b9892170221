import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1

/// Decides a WebSocket upgrade before hummingbird-websocket's upgrade
/// handler sees it, so that every refusal gets a real HTTP answer with a
/// JSON error, never that library's bare 400.
///
/// The handler sits between the HTTP decoder and the upgrade handler and
/// sees a connection's first request only (only that one can be an
/// upgrade: the upgrade handler then leaves the pipeline, and so does this
/// filter). It holds an upgrade's head — and the parts and reads that come
/// after it — while ``SessionGate`` decides, with the catalog's I/O off the
/// event loop, then lets the head go on:
/// - admitted, marked with ``admittedUpgradeHeader`` (which the session
///   route's `shouldUpgrade` requires) and holding a ``SessionSlots`` slot
///   until its connection closes;
/// - refused, as a plain GET marked with ``refusedUpgradeHeader``, which
///   the HTTP router answers with the status and JSON error its
///   middlewares and the session path's route give (421
///   `host_not_allowed`, 403 `origin_not_allowed`, 401 `token_required` or
///   `invalid_token`, 404 `list_not_found`, 503 `too_many_sessions`).
///
/// Both markers are removed from every first request a client sends, so
/// no client can claim an admission.
final class UpgradeFilter: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    // Responses pass through untouched.
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Marks a refused upgrade for the router: a ``SessionGate/Refusal``.
    /// A client may send it on a later request itself: it then gets the
    /// answer a refused upgrade would, nothing more.
    static let refusedUpgradeHeader = "X-Carousel-Refused-Upgrade"
    /// Marks an upgrade this filter admitted.
    static let admittedUpgradeHeader = "X-Carousel-Admitted-Upgrade"

    let gate: SessionGate
    /// The parts that came while a verdict was pending; nil when none is.
    private var held: [NIOAny]?
    /// Whether a read was asked for while a verdict was pending.
    private var readHeld = false
    private var removed = false

    init(gate: SessionGate) {
        self.gate = gate
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if held != nil {
            held?.append(data)
            return
        }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        head.headers.remove(name: Self.refusedUpgradeHeader)
        head.headers.remove(name: Self.admittedUpgradeHeader)
        guard Self.isWebSocketUpgrade(head) else {
            pass(head, refusal: nil, context: context)
            return
        }
        let upgrade = Self.upgrade(of: head)
        if let refusal = gate.refusesAtOnce(upgrade) {
            pass(head, refusal: refusal, context: context)
            return
        }
        let heldHead = head
        // Hold everything until the verdict: the parts the decoder has
        // already made (at most one read's worth) and further reads.
        held = []
        let gate = gate
        let verdict = context.eventLoop.makePromise(of: Bool.self)
        verdict.completeWithTask { await gate.admits(upgrade) }
        verdict.futureResult.assumeIsolated().whenComplete { result in
            // The connection closed meanwhile: nothing to answer, no slot.
            guard !self.removed, context.channel.isActive else { return }
            let refusal: SessionGate.Refusal? =
                switch result {
                case .success(true): gate.slots.take(for: context.channel) ? nil : .tooManySessions
                default: .refused
                }
            self.pass(heldHead, refusal: refusal, context: context, late: true)
        }
    }

    func read(context: ChannelHandlerContext) {
        if held != nil {
            readHeld = true
        } else {
            context.read()
        }
    }

    /// Sends `head` on, admitted or refused, then what was held, and
    /// leaves. `late`: after its read completed (a verdict that took I/O),
    /// so the read's completion is told again for what now comes.
    private func pass(_ head: HTTPRequestHead, refusal: SessionGate.Refusal?, context: ChannelHandlerContext, late: Bool = false) {
        var head = head
        if Self.isWebSocketUpgrade(head) {
            if let refusal {
                head.headers.remove(name: "upgrade")
                head.headers.remove(name: "connection")
                head.headers.add(name: Self.refusedUpgradeHeader, value: refusal.rawValue)
            } else {
                head.headers.add(name: Self.admittedUpgradeHeader, value: "1")
            }
        }
        let parts = held ?? []
        held = nil
        context.fireChannelRead(wrapInboundOut(.head(head)))
        for part in parts { context.fireChannelRead(part) }
        if late { context.fireChannelReadComplete() }
        if readHeld {
            readHeld = false
            context.read()
        }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    /// What NIO's upgrade handler takes for an upgrade to WebSocket: a
    /// `Connection` naming `upgrade` and an `Upgrade` naming `websocket`
    /// (both case-insensitive, comma-separated lists).
    static func isWebSocketUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
            && head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
    }

    /// What the gate decides on: the path must be `/lists/{name}/session`
    /// (split as the router splits it, empty segments dropped) and the
    /// name percent-decode to a name that is not blank, as the route's.
    static func upgrade(of head: HTTPRequestHead) -> SessionGate.Upgrade {
        let uri = URI(head.uri)
        let segments = uri.path.split(separator: "/", omittingEmptySubsequences: true)
        var list: String?
        if segments.count == 3, segments[0] == "lists", segments[2] == "session",
            let name = segments[1].removingPercentEncoding, !name.allSatisfy(\.isWhitespace)
        {
            list = name
        }
        return SessionGate.Upgrade(
            authority: head.headers.first(name: "host"), origin: head.headers.first(name: "origin"),
            credentials: CallerCredentials(
                authorization: head.headers.first(name: "authorization"), queryToken: uri.queryParameters["token"].map(String.init)),
            list: list)
    }
}
