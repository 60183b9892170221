import CarouselCommandLine
import CarouselServer
import Foundation
import PostgresCatalog

/// `carousel serve`'s flags and `CAROUSEL_*` variables, checked and
/// resolved into the server's settings: a flag wins over its variable.
extension ServeOptions {
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
            options.logFormat = ServerOptions.LogFormat(logFormat)
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
}

extension ServerOptions.LogFormat {
    /// The server's format `--log-format` names (the two share their names;
    /// a test holds them to it).
    init(_ format: ServeOptions.LogFormat) {
        switch format {
        case .text: self = .text
        case .json: self = .json
        }
    }
}
