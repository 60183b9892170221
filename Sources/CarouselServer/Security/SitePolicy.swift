import Hummingbird

/// Which host names the server answers for and which browser origins may
/// call it: the defence against cross-site requests and DNS rebinding.
///
/// A rebinding attack points a name of the attacker's at the server's
/// address, so the browser sends that name as `Host`; an IP literal can
/// never be such a name, so IP literals and loopback names are always
/// answered, and any other name only when given as a public host.
struct SitePolicy: Sendable {
    let corsOrigins: Set<String>
    /// `*` among the CORS origins: any origin may read (never write).
    let anyOriginMayRead: Bool
    let publicHosts: Set<String>
    /// Whether the server speaks TLS: its own origin is `https://` (and
    /// `wss://`), else `http://` (and `ws://`).
    let secure: Bool

    init(options: ServerOptions, secure: Bool) {
        self.secure = secure
        corsOrigins = Set(options.corsOrigins.filter { $0 != "*" }.map { Self.normalizedOrigin($0) })
        anyOriginMayRead = options.corsOrigins.contains("*")
        publicHosts = Set(options.publicHosts.map { $0.lowercased() })
    }

    /// Whether `authority` (`host[:port]`, the `Host` header) names this
    /// server; a request without one (HTTP/1.0) is no browser's.
    func answers(authority: String?) -> Bool {
        guard let authority, !authority.isEmpty else { return true }
        guard let host = Self.hostName(of: authority) else { return false }
        return host == "localhost" || host.hasSuffix(".localhost") || Self.isIPLiteral(host) || publicHosts.contains(host)
    }

    /// Whether a request from `origin` may be served: the server's own
    /// origin (the page at `/`), a listed one, or for reads `*`.
    func allows(origin: String, authority: String?, write: Bool) -> Bool {
        isOwn(origin: origin, authority: authority) || corsOrigins.contains(Self.normalizedOrigin(origin)) || (!write && anyOriginMayRead)
    }

    /// The `Access-Control-Allow-Origin` for `origin`, nil when it gets none.
    func allowOriginHeader(for origin: String, write: Bool) -> String? {
        if corsOrigins.contains(Self.normalizedOrigin(origin)) { return origin }
        if !write && anyOriginMayRead { return "*" }
        return nil
    }

    /// Whether `origin` is the server's own: the page at `/` loaded from
    /// the `authority` the request names, over the scheme the server
    /// speaks (an origin is scheme, host and port: RFC 6454 §4; a page on
    /// `https://host:port` is not the plain-HTTP server's own). A `ws://`
    /// or `wss://` origin (which WebSocket libraries send, browsers never)
    /// is its own when its scheme matches too and its host is the
    /// authority's, port aside. Behind a proxy that ends TLS, the public
    /// `https://` origin is a `--cors-origin`.
    func isOwn(origin: String, authority: String?) -> Bool {
        guard let authority = authority?.lowercased() else { return false }
        let origin = Self.normalizedOrigin(origin)
        if origin == (secure ? "https://" : "http://") + authority { return true }
        let socketScheme = secure ? "wss://" : "ws://"
        guard origin.hasPrefix(socketScheme) else { return false }
        return Self.hostName(of: String(origin.dropFirst(socketScheme.count))) == Self.hostName(of: authority)
    }

    /// The host of `host[:port]` or `[v6][:port]`, lowercased; nil when malformed.
    static func hostName(of authority: String) -> String? {
        let text = authority.lowercased()
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            return String(text[...close])
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let host = parts.first, !host.isEmpty else { return nil }
        if parts.count == 2, UInt16(parts[1]) == nil { return nil }
        return String(host)
    }

    /// A dotted IPv4 address or a bracketed IPv6 one.
    static func isIPLiteral(_ host: String) -> Bool {
        if host.hasPrefix("[") && host.hasSuffix("]") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Origins compare case-insensitively in scheme and host (RFC 6454 §4).
    static func normalizedOrigin(_ origin: String) -> String {
        var text = origin.lowercased()
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
