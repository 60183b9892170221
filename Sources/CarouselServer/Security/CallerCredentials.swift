import Hummingbird

/// The bearer token a request carries: `Authorization: Bearer TOKEN`, or
/// for a WebSocket upgrade (browsers cannot set its headers) the `token`
/// query item.
enum CallerCredentials {
    case none
    case token(String)
    /// An `Authorization` header that is not `Bearer` and one token.
    case malformed

    /// The longest token accepted; longer is malformed, never hashed.
    static let maxTokenLength = 256

    init(_ request: Request, allowQueryItem: Bool) {
        self.init(
            authorization: request.headers[.authorization],
            queryToken: allowQueryItem ? request.uri.queryParameters["token"].map(String.init) : nil)
    }

    /// The `Authorization` header if there is one, else the `token` query
    /// item if given (the session upgrade's, read before any router).
    init(authorization: String?, queryToken: String?) {
        if let authorization {
            self = Self.parse(authorization)
        } else if let queryToken {
            self = Self.isToken(queryToken) ? .token(queryToken) : .malformed
        } else {
            self = .none
        }
    }

    /// `Bearer` (any case) then the token (RFC 6750 §2.1: b64token).
    static func parse(_ header: String) -> CallerCredentials {
        let parts = header.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return .malformed }
        let token = String(parts[1])
        return isToken(token) ? .token(token) : .malformed
    }

    /// RFC 6750's b64token: ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/", then "=" padding.
    static func isToken(_ text: String) -> Bool {
        guard (1...maxTokenLength).contains(text.utf8.count) else { return false }
        var padding = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "="): padding = true
            case _ where padding: return false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"):
                continue
            default: return false
            }
        }
        return true
    }
}
