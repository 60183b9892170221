import ArgumentParser
import CarouselServer
import Dispatch
import Foundation
import Hummingbird
import Locks
import Logging

extension Carousel {
    /// `carousel serve`: the catalog and live map sync over HTTP (CarouselServer).
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "serve",
            abstract: "Serve the catalog and live map sync over HTTP and WebSocket, with a page at /.",
            discussion: """
                JSON endpoints (described at /openapi.json): GET /lists, /lists/{name}/stores, \
                /lists/{name}/clusters, /stores/{list}/{id}, /stores/near, /stores/bbox; POST /lists/{name}/import, /simulate; \
                and the WebSocket /lists/{name}/session. --db may name a SQLite file or a postgres:// URL: several \
                servers on one PostgreSQL catalog follow each other's imports within a second. \
                Open http://HOST:PORT/ in a browser to see \
                the map and the carousel in sync. Stops gracefully on SIGINT or SIGTERM; logs one line \
                per request on stderr. Writes need a write token (carousel tokens create NAME --scope \
                write); probes: GET /healthz, /readyz, /metrics. Every option may also come from the \
                CAROUSEL_* variable its help names; a flag wins.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The address to listen on (default 127.0.0.1). Env: CAROUSEL_HOST.")
        var host: String?

        // Numbers parse unconditionally, as everywhere in the CLI: `--port -1`
        // is then a range error, not "missing value".
        @Option(parsing: .unconditional, help: "The port to listen on (0: any free port, printed at start; default 8080). Env: CAROUSEL_PORT.")
        var port: Int?

        @OptionGroup var serving: ServeOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Answer GET /stores/near from memory while the catalog holds at most this many stores and list items together.",
                discussion: "About 130 bytes each; a larger catalog is answered by the catalog (SQLite or PostgreSQL). 0: always by the catalog.",
                valueName: "entries"))
        var nearestInMemory = CarouselServer.standardNearestInMemoryEntries

        @Option(help: .hidden)
        var constantRouteBytes: Int?

        /// 10⁸ entries: some 13 GB, beyond any machine this serves from.
        static let maxNearestInMemory = 100_000_000

        func validate() throws {
            if let port, !(0...65535).contains(port) { throw ValidationError("--port must be in 0...65535 (got \(port))") }
            guard (0...Self.maxNearestInMemory).contains(nearestInMemory) else {
                throw ValidationError("--nearest-in-memory must be in 0...\(Self.maxNearestInMemory) (got \(nearestInMemory))")
            }
            if let constantRouteBytes, !(1...(64 << 20)).contains(constantRouteBytes) {
                throw ValidationError("--constant-route-bytes must be in 1...\(64 << 20)")
            }
        }

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let options = try serving.resolved(environment: environment)
            let host = host ?? environment["CAROUSEL_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
            let port = try ServeOptions.number(port, "--port", "CAROUSEL_PORT", environment, in: 0...65535) ?? 8080
            let engine = try database.openEngineWaiting(
                access: .read, maxConnections: try serving.resolvedDBConnections(environment: environment))
            var configured = try CarouselServer(engine: engine, options: options, nearestInMemoryEntries: nearestInMemory)
            configured.constantRouteBytes = constantRouteBytes
            let server = configured
            // Its first requests answered from memory, not while it is built.
            try Blocking.wait { try await server.prepareNearestAnswersInBackground() }
            let logger =
                options.logFormat == .json
                ? Logger(label: "carousel.serve") { JSONLogHandler(label: $0) } : Logger(label: "carousel.serve")
            let grace = try serving.resolvedShutdownGrace(environment: environment)
            let tls = try serving.resolvedTLS(environment: environment).map {
                try TLSCertificates(certificatePath: $0.certificate, keyPath: $0.key)
            }
            if !Self.isLoopback(host) {
                // One line, for whoever starts it on a shared network.
                let hasWriteToken = (try? Blocking.wait { try await engine.hasWriteToken() }) == true
                let writes = hasWriteToken ? "writes enabled (a write token exists)" : "writes disabled (no write token)"
                FileHandle.standardError.write(
                    Data("carousel: serving on \(host), not loopback: \(writes), TLS \(tls == nil ? "off" : "on")\n".utf8))
            }
            let scheme = tls == nil ? "http" : "https"
            let running: @Sendable (Int) async -> Void = { port in
                logger.info("carousel serving \(engine.location) on \(scheme)://\(host):\(port)/")
            }
            let reload = tls.map { Self.reloadOnHangUp($0, logger: logger) }
            defer { reload?.cancel() }
            // The CLI's entry point is synchronous; the server runs as a task
            // (its service group turning SIGINT/SIGTERM into a graceful
            // shutdown) while this thread waits for it to end.
            let failure = StateLock<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    if let tls {
                        let app = try server.application(host: host, port: port, logger: logger, tls: tls, onServerRunning: running)
                        try await server.runUntilStopped(app, shutdownGrace: grace, logger: logger)
                    } else {
                        let app = server.application(host: host, port: port, logger: logger, onServerRunning: running)
                        try await server.runUntilStopped(app, shutdownGrace: grace, logger: logger)
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
                done.signal()
            }
            done.wait()
            if let error = failure.withLock({ $0 }) {
                throw CLIError("cannot serve on \(host):\(port): \(error)")
            }
        }

        /// Reads the certificate and key again on each SIGHUP; a file that
        /// fails leaves the pair in use, with one log line.
        static func reloadOnHangUp(_ tls: TLSCertificates, logger: Logger) -> any DispatchSourceSignal {
            signal(SIGHUP, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
            source.setEventHandler {
                do {
                    try tls.reload()
                    logger.info("reloaded the TLS certificate \(tls.certificatePath)")
                } catch {
                    logger.error("kept the TLS certificate in use: \(error)")
                }
            }
            source.resume()
            return source
        }

        /// 127.0.0.0/8, ::1 and localhost: only this machine reaches them.
        static func isLoopback(_ host: String) -> Bool {
            host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
        }
    }
}
