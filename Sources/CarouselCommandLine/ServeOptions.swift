import ArgumentParser
import Foundation

/// `carousel serve`'s production options. Each may also come from a
/// `CAROUSEL_*` environment variable (named in its help); a flag wins.
package struct ServeOptions: ParsableArguments {
    @Flag(help: "Reads need a read (or write) token too. Env: CAROUSEL_REQUIRE_TOKEN_FOR_READS=1.")
    package var requireTokenForReads = false

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "A browser origin allowed to call the API (https://app.example), matched exactly; repeatable.",
            discussion: "* lets any origin read, never write. Env: CAROUSEL_CORS_ORIGIN (comma-separated).",
            valueName: "origin"))
    package var corsOrigins: [String] = []

    @Option(
        name: .customLong("public-host"),
        help: ArgumentHelp(
            "A host name clients reach the server by (beyond loopback names and IP addresses); repeatable.",
            discussion: "A request naming any other Host is refused (DNS rebinding). Env: CAROUSEL_PUBLIC_HOST (comma-separated).",
            valueName: "name"))
    package var publicHosts: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cache-Control max-age of catalog reads, in seconds; 0: no-cache, clients revalidate (default 0).",
            discussion: "Env: CAROUSEL_CACHE_MAX_AGE.", valueName: "seconds"))
    package var cacheMaxAge: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Requests per second per client address, with bursts of twice as many; past it 429 (default: no limit).",
            discussion: "Env: CAROUSEL_RATE_LIMIT.", valueName: "n"))
    package var rateLimit: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The most live sessions at once; past it 503 (default 1000).", discussion: "Env: CAROUSEL_MAX_SESSIONS.", valueName: "n"))
    package var maxSessions: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a session whose client sent nothing for this many seconds (default: never).",
            discussion: "Env: CAROUSEL_SESSION_IDLE_TIMEOUT.", valueName: "seconds"))
    package var sessionIdleTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection that sends no complete request head, no next request or no body bytes for this many seconds (default 10; 0: never).",
            discussion: "Env: CAROUSEL_REQUEST_TIMEOUT.", valueName: "seconds"))
    package var requestTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "On SIGTERM or SIGINT, let requests in flight finish for up to this many seconds (default 30).",
            discussion: "Env: CAROUSEL_SHUTDOWN_GRACE.", valueName: "seconds"))
    package var shutdownGrace: Int?

    @Option(
        help: ArgumentHelp(
            "A PEM certificate chain: serve HTTPS and WSS (with --tls-key). SIGHUP reads both files again.",
            discussion: "Env: CAROUSEL_TLS_CERT.", valueName: "pem"))
    package var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", discussion: "Env: CAROUSEL_TLS_KEY.", valueName: "pem"))
    package var tlsKey: String?

    @Option(help: ArgumentHelp("text (default) or json: one JSON object per request.", discussion: "Env: CAROUSEL_LOG_FORMAT.", valueName: "format"))
    package var logFormat: LogFormat?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "On a postgres:// catalog, the most database connections this server opens at once (default 16).",
            discussion: "Requests beyond it wait for one; the change watch takes one more. Env: CAROUSEL_DB_CONNECTIONS.",
            valueName: "n"))
    package var dbConnections: Int?

    // The server benchmark's measure of what they cost.
    @Flag(help: .hidden) package var noMetrics = false
    @Flag(help: .hidden) package var noRequestLog = false

    package init() {}

    package static let maxSessionsCap = 1_000_000
    /// PostgreSQL's own ceiling on `max_connections`.
    package static let maxDBConnections = 262_143
    /// An hour: longer than any request should wait or any stop should take.
    package static let maxTimeout = 3600
    package static let maxIdleTimeout = 86_400

    /// The database connections a server on PostgreSQL opens at most.
    package static func number(
        _ value: Int?, _ flag: String, _ name: String, _ environment: [String: String], in range: ClosedRange<Int>
    ) throws -> Int? {
        if let value {
            guard range.contains(value) else { throw CLIError("\(flag) must be in \(range.lowerBound)...\(range.upperBound) (got \(value))") }
            return value
        }
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw CLIError("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound) (got '\(text.prefix(40))')")
        }
        return number
    }

    package static func flag(_ name: String, _ environment: [String: String]) throws -> Bool {
        switch environment[name]?.lowercased() {
        case nil, "", "0", "false", "no": return false
        case "1", "true", "yes": return true
        case let text?: throw CLIError("\(name) must be 1 or 0 (got '\(text.prefix(40))')")
        }
    }

    package static func list(_ name: String, _ environment: [String: String]) -> [String] {
        (environment[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension ServeOptions {
    /// `--log-format`: the server's log formats (`ServerOptions.LogFormat`,
    /// which a test holds these to), named here for parsing, help and
    /// completions, since this module does not link the server.
    package enum LogFormat: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }
}
