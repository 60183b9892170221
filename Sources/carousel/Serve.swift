import ArgumentParser
import CarouselServer
import Dispatch
import Hummingbird
import Logging
import Locks

extension Carousel {
    /// `carousel serve`: the catalog and live map sync over HTTP (CarouselServer).
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the catalog and live map sync over HTTP and WebSocket, with a page at /.",
            discussion: """
                JSON endpoints (described at /openapi.json): GET /lists, /lists/{name}/stores, \
                /lists/{name}/clusters, /stores/{list}/{id}, /stores/near, /stores/bbox; POST /lists/{name}/import, /simulate; \
                and the WebSocket /lists/{name}/session. Open http://HOST:PORT/ in a browser to see \
                the map and the carousel in sync. Stops gracefully on SIGINT or SIGTERM; logs one line \
                per request on stderr.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The address to listen on.")
        var host = "127.0.0.1"

        // Numbers parse unconditionally, as everywhere in the CLI: `--port -1`
        // is then a range error, not "missing value".
        @Option(parsing: .unconditional, help: "The port to listen on (0: any free port, printed at start).")
        var port = 8080

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Answer GET /stores/near from memory while the catalog holds at most this many stores and list items together.",
                discussion: "About 130 bytes each; a larger catalog is answered through SQLite. 0: always through SQLite.",
                valueName: "entries"))
        var nearestInMemory = CarouselServer.standardNearestInMemoryEntries

        @Option(help: .hidden)
        var constantRouteBytes: Int?

        /// 10⁸ entries: some 13 GB, beyond any machine this serves from.
        static let maxNearestInMemory = 100_000_000

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be in 0...65535 (got \(port))") }
            guard (0...Self.maxNearestInMemory).contains(nearestInMemory) else {
                throw ValidationError("--nearest-in-memory must be in 0...\(Self.maxNearestInMemory) (got \(nearestInMemory))")
            }
            if let constantRouteBytes, !(1...(64 << 20)).contains(constantRouteBytes) {
                throw ValidationError("--constant-route-bytes must be in 1...\(64 << 20)")
            }
        }

        func run() throws {
            let catalog = try database.openCatalog()
            let server = CarouselServer(
                catalog: catalog, constantRouteBytes: constantRouteBytes, nearestInMemoryEntries: nearestInMemory)
            // Its first requests answered from memory, not while it is built.
            try server.prepareNearestAnswersInBackground()
            let logger = Logger(label: "carousel.serve")
            let host = host
            let app = server.application(host: host, port: port, logger: logger) { port in
                logger.info("carousel serving \(catalog.path) on http://\(host):\(port)/")
            }
            // The CLI's entry point is synchronous; the server runs as a task
            // (its service group turning SIGINT/SIGTERM into a graceful
            // shutdown) while this thread waits for it to end.
            let failure = StateLock<(any Error)?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await app.runService()
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
    }
}
