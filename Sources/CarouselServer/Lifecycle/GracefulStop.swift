import Hummingbird
import Logging
import ServiceLifecycle

extension CarouselServer {
    /// Runs `application` until SIGTERM or SIGINT, then stops gracefully:
    /// the listener closes at once, requests in flight finish (an import
    /// commits whole or rolls back), sessions are closed with 1001, for up
    /// to `grace`; past it what is left is cancelled (an import cancelled
    /// mid-way rolls back: its transaction never commits).
    ///
    /// Returns normally after a stop by signal, whether or not the grace
    /// ran out: the process then exits 0.
    public static func runUntilStopped(
        _ application: some ApplicationProtocol, shutdownGrace grace: Duration, logger: Logger
    ) async throws {
        var configuration = ServiceGroupConfiguration(
            services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = grace
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch is CancellationError {
            // What the group's cancellation past the grace leaves.
            logger.warning("stopped after the shutdown grace of \(grace): requests still running were cancelled")
        }
    }
}
