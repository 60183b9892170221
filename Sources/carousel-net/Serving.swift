import CarouselCommandLine
import CarouselServer
import Dispatch
import Foundation
import Hummingbird
import Locks
import Logging

/// `carousel serve`, run: the server over the catalog `--db` names until
/// SIGINT or SIGTERM stops it.
extension NetworkStack {
    func serve(_ command: Carousel.Serve) throws {
        let serving = command.serving
        let environment = ProcessInfo.processInfo.environment
        let options = try serving.resolved(environment: environment)
        let host = command.host ?? environment["CAROUSEL_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        let port = try ServeOptions.number(command.port, "--port", "CAROUSEL_PORT", environment, in: 0...65535) ?? 8080
        let engine = try command.database.openEngineWaiting(
            access: .read, maxConnections: try serving.resolvedDBConnections(environment: environment))
        var configured = try CarouselServer(engine: engine, options: options, nearestInMemoryEntries: command.nearestInMemory)
        configured.constantRouteBytes = command.constantRouteBytes
        // The nearest-store snapshot is built at the first GET /stores/near,
        // not as the server starts: a server that answers none (sessions,
        // tiles, sync) never holds it.
        let server = configured
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
            let writes =
                hasWriteToken
                ? "writes enabled (a write token exists)"
                : "writes disabled (no write token; `carousel tokens create NAME --scope write` makes one)"
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
    /// fails, or a key that is not the certificate's, leaves the pair in
    /// use, with one log line.
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
