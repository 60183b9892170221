import ArgumentParser
import CarouselServer
import Foundation
import PostgresCatalog

/// `carousel serve`'s production options. Each may also come from a
/// `CAROUSEL_*` environment variable (named in its help); a flag wins.
struct ServeOptions: ParsableArguments {
    @Flag(help: "Reads need a read (or write) token too. Env: CAROUSEL_REQUIRE_TOKEN_FOR_READS=1.")
    var requireTokenForReads = false

    @Option(
        name: .customLong("cors-origin"),
        help: ArgumentHelp(
            "A browser origin allowed to call the API (https://app.example), matched exactly; repeatable.",
            discussion: "* lets any origin read, never write. Env: CAROUSEL_CORS_ORIGIN (comma-separated).",
            valueName: "origin"))
    var corsOrigins: [String] = []

    @Option(
        name: .customLong("public-host"),
        help: ArgumentHelp(
            "A host name clients reach the server by (beyond loopback names and IP addresses); repeatable.",
            discussion: "A request naming any other Host is refused (DNS rebinding). Env: CAROUSEL_PUBLIC_HOST (comma-separated).",
            valueName: "name"))
    var publicHosts: [String] = []

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Cache-Control max-age of catalog reads, in seconds; 0: no-cache, clients revalidate (default 0).",
            discussion: "Env: CAROUSEL_CACHE_MAX_AGE.", valueName: "seconds"))
    var cacheMaxAge: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Requests per second per client address, with bursts of twice as many; past it 429 (default: no limit).",
            discussion: "Env: CAROUSEL_RATE_LIMIT.", valueName: "n"))
    var rateLimit: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("The most live sessions at once; past it 503 (default 1000).", discussion: "Env: CAROUSEL_MAX_SESSIONS.", valueName: "n"))
    var maxSessions: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a session whose client sent nothing for this many seconds (default: never).",
            discussion: "Env: CAROUSEL_SESSION_IDLE_TIMEOUT.", valueName: "seconds"))
    var sessionIdleTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Close a connection that sends no complete request head, no next request or no body bytes for this many seconds (default 10; 0: never).",
            discussion: "Env: CAROUSEL_REQUEST_TIMEOUT.", valueName: "seconds"))
    var requestTimeout: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "On SIGTERM or SIGINT, let requests in flight finish for up to this many seconds (default 30).",
            discussion: "Env: CAROUSEL_SHUTDOWN_GRACE.", valueName: "seconds"))
    var shutdownGrace: Int?

    @Option(
        help: ArgumentHelp(
            "A PEM certificate chain: serve HTTPS and WSS (with --tls-key). SIGHUP reads both files again.",
            discussion: "Env: CAROUSEL_TLS_CERT.", valueName: "pem"))
    var tlsCert: String?

    @Option(help: ArgumentHelp("The PEM private key of --tls-cert.", discussion: "Env: CAROUSEL_TLS_KEY.", valueName: "pem"))
    var tlsKey: String?

    @Option(help: ArgumentHelp("text (default) or json: one JSON object per request.", discussion: "Env: CAROUSEL_LOG_FORMAT.", valueName: "format"))
    var logFormat: ServerOptions.LogFormat?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "On a postgres:// catalog, the most database connections this server opens at once (default 16).",
            discussion: "Requests beyond it wait for one; the change watch takes one more. Env: CAROUSEL_DB_CONNECTIONS.",
            valueName: "n"))
    var dbConnections: Int?

    // The server benchmark's measure of what they cost.
    @Flag(help: .hidden) var noMetrics = false
    @Flag(help: .hidden) var noRequestLog = false

    static let maxSessionsCap = 1_000_000
    /// PostgreSQL's own ceiling on `max_connections`.
    static let maxDBConnections = 262_143
    /// An hour: longer than any request should wait or any stop should take.
    static let maxTimeout = 3600
    static let maxIdleTimeout = 86_400

    /// The database connections a server on PostgreSQL opens at most.
    func resolvedDBConnections(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int {
        try Self.number(dbConnections, "--db-connections", "CAROUSEL_DB_CONNECTIONS", environment, in: 1...Self.maxDBConnections)
            ?? PostgresCatalog.standardMaxConnections
    }

    /// The options from the flags, else the environment, else the defaults.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerOptions {
        var options = ServerOptions()
        options.requireTokenForReads = try requireTokenForReads || Self.flag("CAROUSEL_REQUIRE_TOKEN_FOR_READS", environment)
        options.corsOrigins = corsOrigins.isEmpty ? Self.list("CAROUSEL_CORS_ORIGIN", environment) : corsOrigins
        options.publicHosts = publicHosts.isEmpty ? Self.list("CAROUSEL_PUBLIC_HOST", environment) : publicHosts
        for origin in options.corsOrigins where origin != "*" {
            guard let url = URL(string: origin), let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), url.host != nil,
                url.path.isEmpty || url.path == "/", url.query == nil
            else { throw CLIError("--cors-origin must be * or scheme://host[:port] (got '\(origin)')") }
        }
        for host in options.publicHosts {
            guard !host.isEmpty, !host.contains(where: { $0 == ":" || $0 == "/" || $0.isWhitespace }) else {
                throw CLIError("--public-host must be a host name without port (got '\(host)')")
            }
        }
        options.cacheMaxAge =
            try Self.number(
                cacheMaxAge, "--cache-max-age", "CAROUSEL_CACHE_MAX_AGE", environment, in: 0...ServerOptions.maxCacheMaxAge) ?? 0
        options.rateLimit = try Self.number(rateLimit, "--rate-limit", "CAROUSEL_RATE_LIMIT", environment, in: 1...ServerOptions.maxRateLimit)
        options.maxSessions =
            try Self.number(
                maxSessions, "--max-sessions", "CAROUSEL_MAX_SESSIONS", environment, in: 0...Self.maxSessionsCap) ?? 1000
        options.sessionIdleTimeout = try Self.number(
            sessionIdleTimeout, "--session-idle-timeout", "CAROUSEL_SESSION_IDLE_TIMEOUT", environment, in: 1...Self.maxIdleTimeout
        ).map { .seconds($0) }
        if let logFormat {
            options.logFormat = logFormat
        } else if let text = environment["CAROUSEL_LOG_FORMAT"], !text.isEmpty {
            guard let format = ServerOptions.LogFormat(rawValue: text) else {
                throw CLIError("CAROUSEL_LOG_FORMAT must be text or json (got '\(text)')")
            }
            options.logFormat = format
        }
        let timeout =
            try Self.number(
                requestTimeout, "--request-timeout", "CAROUSEL_REQUEST_TIMEOUT", environment, in: 0...Self.maxTimeout) ?? 10
        options.requestTimeout = timeout == 0 ? nil : .seconds(timeout)
        options.metrics = !noMetrics
        options.logsRequests = !noRequestLog
        return options
    }

    /// `--shutdown-grace`, else its variable, else 30 s.
    func resolvedShutdownGrace(environment: [String: String]) throws -> Duration {
        .seconds(try Self.number(shutdownGrace, "--shutdown-grace", "CAROUSEL_SHUTDOWN_GRACE", environment, in: 0...Self.maxTimeout) ?? 30)
    }

    /// The certificate and key paths, both or neither.
    func resolvedTLS(environment: [String: String]) throws -> (certificate: String, key: String)? {
        let certificate = tlsCert ?? environment["CAROUSEL_TLS_CERT"].flatMap { $0.isEmpty ? nil : $0 }
        let key = tlsKey ?? environment["CAROUSEL_TLS_KEY"].flatMap { $0.isEmpty ? nil : $0 }
        switch (certificate, key) {
        case (nil, nil): return nil
        case let (certificate?, key?): return (certificate, key)
        case (nil, _?): throw CLIError("--tls-key needs --tls-cert (the certificate chain it goes with)")
        case (_?, nil): throw CLIError("--tls-cert needs --tls-key (its private key)")
        }
    }

    /// `value` (a flag's) else the variable `name`, checked in `range`.
    static func number(
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

    static func flag(_ name: String, _ environment: [String: String]) throws -> Bool {
        switch environment[name]?.lowercased() {
        case nil, "", "0", "false", "no": return false
        case "1", "true", "yes": return true
        case let text?: throw CLIError("\(name) must be 1 or 0 (got '\(text.prefix(40))')")
        }
    }

    static func list(_ name: String, _ environment: [String: String]) -> [String] {
        (environment[name] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension ServerOptions.LogFormat: ExpressibleByArgument {}
