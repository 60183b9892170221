import ArgumentParser

extension Carousel {
    /// `carousel serve`: the catalog and live map sync over HTTP (CarouselServer).
    package struct Serve: ParsableCommand, ParsableCommandWithCatalog {
        package static let configuration = CommandConfiguration.subcommand(
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

        @OptionGroup package var database: DatabaseOptions

        @Option(help: "The address to listen on (default 127.0.0.1). Env: CAROUSEL_HOST.")
        package var host: String?

        // Numbers parse unconditionally, as everywhere in the CLI: `--port -1`
        // is then a range error, not "missing value".
        @Option(parsing: .unconditional, help: "The port to listen on (0: any free port, printed at start; default 8080). Env: CAROUSEL_PORT.")
        package var port: Int?

        @OptionGroup package var serving: ServeOptions

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Answer GET /stores/near from memory while the catalog holds at most this many stores and list items together.",
                discussion:
                    "About 125 bytes each, held from the first such request on; a larger catalog is answered by the catalog (SQLite or PostgreSQL). 0: always by the catalog.",
                valueName: "entries"))
        package var nearestInMemory = Self.standardNearestInMemory

        @Option(help: .hidden)
        package var constantRouteBytes: Int?

        /// The server's own default (`CarouselServer.standardNearestInMemoryEntries`,
        /// which a test holds this to): written here for `--help`, since
        /// this module does not link the server.
        package init() {}

        package static let standardNearestInMemory = 1_000_000

        /// 10⁸ entries: some 13 GB, beyond any machine this serves from.
        static let maxNearestInMemory = 100_000_000

        package func validate() throws {
            if let port, !(0...65535).contains(port) { throw ValidationError("--port must be in 0...65535 (got \(port))") }
            guard (0...Self.maxNearestInMemory).contains(nearestInMemory) else {
                throw ValidationError("--nearest-in-memory must be in 0...\(Self.maxNearestInMemory) (got \(nearestInMemory))")
            }
            if let constantRouteBytes, !(1...(64 << 20)).contains(constantRouteBytes) {
                throw ValidationError("--constant-route-bytes must be in 1...\(64 << 20)")
            }
        }

        /// Served by `carousel-net`, which links the server
        /// (``NetworkFeatures/serve(_:)``).
        package func run() throws {
            try Carousel.requireNetwork().serve(self)
        }
    }
}
