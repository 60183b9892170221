import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

extension CarouselServer {
    /// Runs `application` until SIGTERM or SIGINT, then stops gracefully
    /// (``stoppingGroup(_:shutdownGrace:logger:signals:)``). Returns
    /// normally after a stop by signal, whether or not the grace ran out:
    /// the process then exits 0.
    public func runUntilStopped(_ application: some ApplicationProtocol, shutdownGrace grace: Duration, logger: Logger) async throws {
        do {
            try await stoppingGroup(application, shutdownGrace: grace, logger: logger).run()
        } catch is CancellationError {
            // What the group's cancellation past the grace leaves.
            logger.warning("stopped after the shutdown grace of \(grace): requests still running were cancelled")
        }
    }

    /// The service group that runs `application` and, on `signals` (or
    /// `triggerGracefulShutdown()`), stops it gracefully: first every
    /// session is closed with 1001, "going away" (RFC 6455 §7.4.1: the
    /// client may reconnect elsewhere); then the listener closes and
    /// requests in flight finish (an import commits whole or rolls back),
    /// for up to `grace`; past it what is left is cancelled (an import
    /// cancelled mid-way rolls back: its transaction never commits).
    ///
    /// The sessions go first because a group stops its services in reverse
    /// order, and hummingbird-websocket would close them with 1000.
    public func stoppingGroup(
        _ application: some ApplicationProtocol, shutdownGrace grace: Duration, logger: Logger,
        signals: [UnixSignal] = [.sigterm, .sigint]
    ) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: [application, SessionCloser(sessions: sessions)], gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = grace
        return ServiceGroup(configuration: configuration)
    }
}

/// Waits for the graceful shutdown, then closes every live session with 1001.
struct SessionCloser: Service {
    let sessions: SessionCounter

    func run() async throws {
        try? await gracefulShutdown()
        await sessions.closeAll()
    }
}
