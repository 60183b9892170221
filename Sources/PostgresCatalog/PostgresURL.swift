import CatalogServing
import Foundation
import StoreCatalog

/// A PostgreSQL connection URL in libpq's form
/// (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING):
/// `postgres://user:password@host:port/database?host=/socket/dir&sslmode=…`,
/// `postgresql://` alike. Percent-escapes are decoded in every part.
///
/// Its `description` masks the password, so an error or a log line can name
/// the URL as given without leaking it.
public struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// libpq's `sslmode` values. `prefer` is libpq's default.
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public var user: String
    public var password: String?
    /// A host name or address, or the directory of a Unix socket (a path
    /// starting with `/`, from `?host=` or a percent-encoded host).
    public var host: String
    public var port: Int
    public var database: String
    public var sslMode: SSLMode

    /// Whether `host` is a Unix socket directory, as libpq decides: a path.
    public var isUnixSocket: Bool { host.hasPrefix("/") }

    /// The socket file in `host` for `port`, as libpq names it
    /// (`<dir>/.s.PGSQL.<port>`).
    public var socketPath: String { "\(host)/.s.PGSQL.\(port)" }

    /// Whether `text` is meant as a PostgreSQL URL (and not a SQLite path).
    public static func isPostgresURL(_ text: String) -> Bool {
        PostgresScheme.matches(text)
    }

    /// Parses `text`; a one-line error (with the password masked) if it is
    /// not a PostgreSQL URL.
    public init(_ text: String) throws(PostgresCatalogError) {
        let masked = Self.mask(text)
        func invalid(_ why: String) -> PostgresCatalogError { .invalidURL(masked, why) }
        guard Self.isPostgresURL(text) else { throw invalid("it must start with postgres:// or postgresql://") }
        // A '/' or '?' between the user's ':' and the last '@' is a password
        // holding one, or an '@' after the host: either way the parts below
        // would be cut in the wrong places, and a piece of the password
        // taken for a host, port or database could be echoed in a message
        // (libpq too ends the user info at the first '/'). So it is refused,
        // naming neither piece.
        if let span = Self.passwordSpan(in: text), text[span].contains(where: { $0 == "/" || $0 == "?" }) {
            throw invalid("a '/' or '?' in the password, or an '@' after the host, must be percent-encoded (%2F, %3F, %40)")
        }
        var rest = Substring(text[text.index(after: text.firstIndex(of: ":")!)...].dropFirst(2))
        // The query, then the path (the database), then the authority.
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        var path: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            path = rest[rest.index(after: slash)...]
            rest = rest[..<slash]
        }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = Self.decode(userInfo[..<colon])
                password = Self.decode(userInfo[userInfo.index(after: colon)...])
            } else {
                user = Self.decode(userInfo)
            }
        }
        var host: String?
        var port: Int?
        if rest.hasPrefix("[") {  // [IPv6]:port
            guard let close = rest.firstIndex(of: "]") else { throw invalid("an IPv6 host has no closing ]") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let number = Int(rest.dropFirst()) else { throw invalid("the port is not a number") }
                port = number
            } else if !rest.isEmpty {
                throw invalid("unexpected text after the host")
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = Self.decode(rest[..<colon])
            guard let number = Int(rest[rest.index(after: colon)...]) else { throw invalid("the port is not a number") }
            port = number
        } else if !rest.isEmpty {
            host = Self.decode(rest)
        }
        var sslMode = SSLMode.prefer
        for pair in query.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            switch key {
            case "host": host = value
            case "port":
                guard let number = Int(value) else { throw invalid("the port is not a number") }
                port = number
            case "user": user = value
            case "password": password = value
            case "dbname": path = Substring(value)
            case "sslmode":
                guard let mode = SSLMode(rawValue: value) else {
                    throw invalid(
                        "sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(value)')")
                }
                sslMode = mode
            // libpq knows many more; they change nothing we do.
            case "application_name", "connect_timeout", "options", "target_session_attrs": break
            default: throw invalid("unknown parameter '\(key)'")
            }
        }
        if let port, !(1...65535).contains(port) { throw invalid("the port must be 1 to 65535 (got \(port))") }
        // libpq's defaults: the local socket directory, 5432, the user's name.
        self.host = (host?.isEmpty ?? true) ? "/var/run/postgresql" : host!
        self.port = port ?? 5432
        self.user = user ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        self.password = password
        let database = Self.decode(path)
        self.database = database.isEmpty ? self.user : database
        self.sslMode = sslMode
    }

    /// The URL back in its canonical form, password masked as `***`.
    public var description: String { render(password: password == nil ? nil : "***") }

    /// The URL back in its canonical form, password included.
    public var unmasked: String { render(password: password) }

    private func render(password: String?) -> String {
        var text = "postgresql://" + Self.encode(user)
        if let password { text += ":" + (password == "***" ? password : Self.encode(password)) }
        text += "@"
        var query: [String] = []
        if isUnixSocket {
            query.append("host=" + Self.encode(host))
            if port != 5432 { text += ":\(port)" }
        } else {
            text += (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        }
        text += "/" + Self.encode(database)
        if sslMode != .prefer { query.append("sslmode=\(sslMode.rawValue)") }
        if !query.isEmpty { text += "?" + query.joined(separator: "&") }
        return text
    }

    /// `text` with the password of a URL-looking string replaced by `***`:
    /// what an error about a URL that does not parse may show.
    ///
    /// It must hold for text that does not parse, where a '/', '?', '#' or
    /// '@' in the password hides where the parts end: so everything from
    /// the user's ':' to the last '@' of the text goes (`passwordSpan(in:)`),
    /// at worst some of the host or path with it, never a piece of the
    /// password. A `password=` parameter's value goes too, its name
    /// percent-decoded as the parser reads it.
    public static func mask(_ text: String) -> String {
        // What comes before the query, password masked; the rest, where
        // the query starts if there is one.
        var head = ""
        var rest = Substring(text)
        if let span = passwordSpan(in: text) {
            head = String(text[..<span.lowerBound]) + "***"
            rest = text[span.upperBound...]
        }
        // A password given as a query parameter.
        guard let mark = rest.firstIndex(of: "?") else { return head + rest }
        let pairs = rest[rest.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: false).map { pair in
            guard let equals = pair.firstIndex(of: "="), decode(pair[..<equals]) == "password" else { return String(pair) }
            return String(pair[...equals]) + "***"
        }
        return head + rest[...mark] + pairs.joined(separator: "&")
    }

    /// Where the password of a URL-looking `text` is: after the first ':'
    /// of its user info, up to the last '@' of the text. None when no '@'
    /// follows the scheme, or when a '/', '?', '#' or '[' (the path, the
    /// query, a fragment, an IPv6 host) comes before any ':' (a user
    /// without a password).
    static func passwordSpan(in text: String) -> Range<String.Index>? {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
            let colon = text[scheme.upperBound..<at].firstIndex(where: { ":/?#[".contains($0) }), text[colon] == ":"
        else { return nil }
        return text.index(after: colon)..<at
    }

    private static func decode(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
