// swift-tools-version: 6.1
import PackageDescription

// Module map: one direction of dependency.
//
//   StoreCatalog   — stores, lists, import, spatial queries, stored cluster indexes (GRDB, system libsqlite3)
//   CatalogSync    — a server's list kept in the app's own catalog: delta sync over HTTP (no server code)
//   CatalogServing — what a server needs of a catalog besides: API tokens, change watches (swift-crypto)
//   WorkLanes      — the bounded thread pools where async callers run blocking work (internal)
//   CarouselEngine — pure math: layout, snapping, physics, visibility, focus, looping
//   Clustering     — supercluster-compatible marker clustering, pure (no SQLite)
//   Locks          — the lock and atomic word every module shares (internal)
//   TextInput      — the byte reader and the one streaming JSON reader (internal)
//   Observables    — our own lightweight observable, operators and schedulers
//   MapCamera      — pure camera framing on a Web-Mercator map (insets, fit, keep, flyTo timing)
//   MapSync        — the view model: focus stream → camera + marker (engine + observables + camera)
//   CarouselJSON   — the JSON documents the CLI and the server both print
//   CarouselServer — `carousel serve`: HTTP + WebSocket on Hummingbird 2
//   BasemapTiles   — the page's basemap (Natural Earth, MBTiles) compiled in, C (internal)
//   MapSyncCatalog — a catalog list as the view model's store directory (catalog + map sync)
//   OpeningHours   — OpenStreetMap `opening_hours` expressions: open at an instant in a store's zone, pure
//   carousel       — the thin CLI over all of them
//
// The engine and the observable know nothing of SQLite or the CLI.
let package = Package(
    name: "MapCarousel",
    // iOS 16 / macOS 13 (tvOS 16, watchOS 9, visionOS 1 follow): no module
    // uses Synchronization's `Mutex` or `Atomic` (iOS 18) on Apple platforms —
    // `Locks` gives them a pthread lock of our own — and the Observation API
    // (`MapSyncState`) is marked available from iOS 17. Platform floors mean
    // nothing on Linux, which keeps `Mutex` and `Atomic` (see `Locks`);
    // `scripts/check-availability` holds the app-facing modules to them from
    // here. The server products (CarouselServer, PostgresCatalog, Catalogs)
    // really need macOS 15 / iOS 18: task executors and `Mutex`
    // (docs/platforms.md); Hummingbird 2 itself needs macOS 14.
    platforms: [.iOS(.v16), .macOS(.v13), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Geo", targets: ["Geo"]),
        .library(name: "StoreCatalog", targets: ["StoreCatalog"]),
        .library(name: "CatalogSync", targets: ["CatalogSync"]),
        .library(name: "CarouselEngine", targets: ["CarouselEngine"]),
        .library(name: "Clustering", targets: ["Clustering"]),
        .library(name: "VectorTiles", targets: ["VectorTiles"]),
        .library(name: "Observables", targets: ["Observables"]),
        .library(name: "MapCamera", targets: ["MapCamera"]),
        .library(name: "MapSync", targets: ["MapSync"]),
        .library(name: "MapSyncSimulation", targets: ["MapSyncSimulation"]),
        .library(name: "MapSyncCatalog", targets: ["MapSyncCatalog"]),
        .library(name: "OpeningHours", targets: ["OpeningHours"]),
        // Seeded synthetic store lists (CSV) for the scale benchmark and tests.
        .library(name: "SyntheticStores", targets: ["SyntheticStores"]),
        .library(name: "CarouselServer", targets: ["CarouselServer"]),
        .library(name: "PostgresCatalog", targets: ["PostgresCatalog"]),
        .library(name: "Catalogs", targets: ["Catalogs"]),
        .executable(name: "carousel", targets: ["carousel"]),
        .executable(name: "carousel-net", targets: ["carousel-net"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // SHA-256 of API tokens (the catalog keeps only their hashes).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // `GET /metrics`: the server's counters through swift-metrics,
        // exported in the Prometheus text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // `serve --tls-cert/--tls-key`: HTTPS and WSS on the same port.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // The session upgrade's filter sits in NIO's HTTP/1 pipeline.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // `swift package generate-documentation` for the DocC catalogs
        // (scripts/docs); a plugin only, nothing of it links into the modules.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The PostgreSQL + PostGIS catalog (issue 26): the wire protocol,
        // COPY FROM STDIN included.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Tests only: `TestClock`, so that debounces and sessions are tested
        // on virtual time (`ClockScheduler`).
        .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
        // gzip of map tiles (HTTP Content-Encoding, MBTiles and PMTiles
        // tile data), over the system zlib.
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "StoreCatalog",
            dependencies: [
                "Geo", "Clustering", "OpeningHours", "Locks", "TextInput", "WorkLanes",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The schema's SQL, compiled into the binary so that it migrates
            // a database from any directory, copied anywhere.
            // `Sources/StoreCatalog/Migrations` links to the top-level
            // `Migrations/`, the single source of truth.
            // The privacy manifest an App Store upload asks of a library
            // that calls an API with a required reason (stat()).
            resources: [.embedInCode("Migrations"), .copy("PrivacyInfo.xcprivacy")]
        ),
        // Delta sync into the app's own catalog (issue 45): pages of a
        // server's `GET /lists/{name}/changes` over URLSession. App-facing:
        // StoreCatalog and Foundation only, no server module.
        .target(name: "CatalogSync", dependencies: ["StoreCatalog", "WorkLanes"]),
        // What a server needs of a catalog beyond what an app does: API
        // tokens (SHA-256 through swift-crypto), change watches, readers
        // beside each other, the nearest snapshot (`ServingCatalog`). Apart
        // from StoreCatalog, so that an app links neither it nor swift-crypto.
        .target(
            name: "CatalogServing",
            dependencies: [
                "StoreCatalog", "WorkLanes", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The catalog on PostgreSQL + PostGIS, for several servers on one
        // database (issue 26): the same answers as StoreCatalog's, whose
        // row readers and validation it reuses. Its own SQL migrations,
        // compiled in like StoreCatalog's.
        .target(
            name: "PostgresCatalog",
            dependencies: [
                "StoreCatalog", "CatalogServing", "Geo", "Clustering", "WorkLanes",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.embedInCode("Migrations")]
        ),
        .target(name: "Catalogs", dependencies: ["StoreCatalog", "CatalogServing", "PostgresCatalog"]),
        .target(name: "CarouselEngine"),
        // Opening hours in OpenStreetMap's syntax, evaluated in a store's
        // own time zone: pure Swift and Foundation's time zones.
        .target(name: "OpeningHours"),
        // The package's one vocabulary of places: Coordinate, BoundingBox,
        // WebMercator, StorePin. Pure Swift; every module that speaks of
        // places builds on it (and re-exports it).
        .target(name: "Geo"),
        // supercluster-compatible marker clustering: pure Swift, no SQLite.
        .target(name: "Clustering", dependencies: ["Geo"]),
        // Mapbox Vector Tiles of clustered markers (an encoder of our own),
        // gzipped through compress-nio; MBTiles and PMTiles archives of a
        // list's tiles (`carousel tiles export`).
        .target(
            name: "VectorTiles",
            dependencies: [
                "Clustering", "StoreCatalog", "CarouselJSON", .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Synthetic store lists of any size, streamed as CSV: the scale
        // benchmark's 10⁷-store files and the tests' small ones. Depends on
        // nothing, so the benchmark package can use it as well.
        .target(name: "SyntheticStores"),
        // The package's lock and atomic word: `Synchronization` on Linux, a
        // pthread lock of our own on Apple platforms below iOS 18. Internal
        // (`package` API), in no product.
        .target(name: "Locks"),
        // The two bounded thread pools where async callers run blocking
        // work: SQLite calls, and the heavy answers built from them
        // (docs/concurrency.md). Internal (`package` API), in no product.
        .target(name: "WorkLanes", dependencies: ["Locks"]),
        // Input read in a stream: the byte reader every import reads files
        // with, and the package's one JSON reader (store files, scroll
        // scripts, session messages, request bodies), with a Decoder over
        // the small documents it reads whole. Internal (`package` API), in
        // no product.
        .target(name: "TextInput"),
        .target(name: "Observables", dependencies: ["Locks"]),
        // Camera framing on a Web-Mercator map: insets, fit, keep, flyTo timing.
        .target(name: "MapCamera", dependencies: ["Geo"]),
        .target(name: "MapSync", dependencies: ["Geo", "CarouselEngine", "Observables", "MapCamera", "Locks"]),
        // The scroll-script reader and the simulation that replays a script
        // through the view model on virtual time (`carousel simulate`,
        // `POST /simulate`): apart from MapSync, so an app that links the
        // view model does not link the simulator.
        .target(
            name: "MapSyncSimulation", dependencies: ["MapSync", "Geo", "CarouselEngine", "Observables", "MapCamera", "Locks", "TextInput"]),
        // The JSON objects of the CLI's --json, shared with the server so
        // both print the same documents.
        .target(name: "CarouselJSON", dependencies: ["StoreCatalog", "Clustering", "CarouselEngine", "MapCamera", "MapSync", "MapSyncSimulation"]),
        // The backend server: catalog and live map sync over HTTP and
        // WebSocket, and the page at `/` (its HTML, JS and CSS compiled in).
        .target(
            name: "CarouselServer",
            dependencies: [
                "StoreCatalog", "CatalogServing", "Clustering", "CarouselEngine", "Observables", "MapCamera", "MapSync",
                "MapSyncSimulation", "MapSyncCatalog", "CarouselJSON", "Locks", "TextInput", "WorkLanes", "VectorTiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                // The basemap's MBTiles file is an SQLite database.
                "BasemapTiles", .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.embedInCode("Page")]
        ),
        // The page's basemap (scripts/make-basemap), its bytes compiled in by
        // C23's #embed: `.embedInCode` of the 300 KB file is a Swift array
        // literal that took 105 s of CPU and 2.2 GB to compile in debug.
        .target(name: "BasemapTiles", exclude: ["basemap.mbtiles", "README.md"]),
        // The catalog as map sync's store directory: apart from both, so that
        // MapSync never links SQLite and StoreCatalog never knows map sync.
        .target(name: "MapSyncCatalog", dependencies: ["StoreCatalog", "MapSync"]),
        // The command line, as a library: its commands, options and output,
        // run by the two executables below.
        .target(
            name: "CarouselCommandLine",
            dependencies: [
                "StoreCatalog", "CatalogServing", "CarouselEngine", "Observables", "MapCamera", "MapSync", "MapSyncSimulation",
                "Clustering", "CarouselJSON", "Locks", "VectorTiles",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // `carousel demo`'s sample stores and scroll script, compiled in
            // so the binary runs it from any directory, copied anywhere.
            // `Sources/CarouselCommandLine/SampleData/` links to the top-level files.
            resources: [.embedInCode("SampleData")]
        ),
        // `carousel`: every command on SQLite catalogs, without the server
        // and PostgreSQL stacks (NetworkFeatures.swift says why).
        .executableTarget(name: "carousel", dependencies: ["CarouselCommandLine"]),
        // `carousel-net`: the same commands with the server and PostgreSQL;
        // `carousel` runs it for `serve` and postgres:// catalogs.
        .executableTarget(
            name: "carousel-net",
            dependencies: [
                "CarouselCommandLine", "CarouselServer", "Catalogs", "PostgresCatalog", "StoreCatalog", "CatalogServing", "Locks",
                "CatalogSync",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Shared by the test targets: seeded randomness, temporary files,
        // running the built `carousel` binary, fixture paths.
        .target(
            name: "TestSupport", dependencies: ["SyntheticStores", .product(name: "PropertyBased", package: "swift-property-based")],
            path: "Tests/TestSupport"),
        .testTarget(
            name: "StoreCatalogTests",
            dependencies: ["StoreCatalog", "Locks", "TestSupport"]
        ),
        .testTarget(name: "OpeningHoursTests", dependencies: ["OpeningHours"]),
        .testTarget(
            name: "ClusteringTests",
            dependencies: [
                "Clustering", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "VectorTilesTests",
            dependencies: ["VectorTiles", "Clustering", "TestSupport", "SyntheticStores", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SyntheticStoresTests",
            dependencies: ["SyntheticStores", "StoreCatalog", "TestSupport"]
        ),
        .testTarget(
            name: "CarouselEngineTests",
            dependencies: [
                "CarouselEngine", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Marble-style helpers for observable tests (recorded events on the
        // virtual scheduler), as RxTest is to RxSwift.
        .target(name: "ObservablesTesting", dependencies: ["Observables", "Locks"], path: "Tests/ObservablesTesting"),
        .testTarget(
            name: "MapCameraTests",
            dependencies: ["MapCamera", "TestSupport"]
        ),
        .testTarget(
            name: "ObservablesTests",
            dependencies: [
                "Observables", "ObservablesTesting", "Locks", "TestSupport", .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .testTarget(
            name: "MapSyncTests",
            dependencies: [
                "MapSync", "MapSyncSimulation", "MapCamera", "CarouselEngine", "Observables", "ObservablesTesting", "Locks", "TestSupport",
            ]
        ),
        .testTarget(
            name: "MapSyncCatalogTests",
            dependencies: [
                "MapSyncCatalog", "MapSync", "MapSyncSimulation", "StoreCatalog", "CarouselEngine", "Observables", "ObservablesTesting",
                "TestSupport",
            ]
        ),
        .testTarget(name: "LocksTests", dependencies: ["Locks"]),
        .testTarget(name: "WorkLanesTests", dependencies: ["WorkLanes"]),
        .testTarget(name: "TextInputTests", dependencies: ["TextInput", "TestSupport"]),
        .testTarget(
            name: "CatalogSyncTests",
            dependencies: [
                "CatalogSync", "StoreCatalog", "CarouselJSON", "TestSupport", "Locks", "MapSync", "MapSyncCatalog", "CarouselEngine",
                "Observables",
            ]
        ),
        // Against a PostgreSQL cluster of their own (initdb in a temporary
        // directory, a Unix socket): the SQLite catalog's answers.
        .testTarget(
            name: "PostgresCatalogTests",
            dependencies: [
                "PostgresCatalog", "StoreCatalog", "CatalogServing", "TestSupport", "carousel", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Every app-facing module imported beside Observation, whose
        // `Observable` must stay unqualified: no name of ours shadows it.
        .testTarget(
            name: "ObservationCoexistenceTests",
            dependencies: ["CarouselEngine", "MapCamera", "MapSync", "MapSyncCatalog", "Observables"]
        ),
        // End-to-end tests of the built binaries; depending on the executables
        // makes `swift test` build them first.
        .testTarget(
            name: "CLITests",
            dependencies: ["carousel", "carousel-net", "CarouselCommandLine", "CarouselServer", "Locks", "TestSupport"]),
        .testTarget(
            name: "CarouselServerTests",
            dependencies: [
                "CarouselServer", "StoreCatalog", "CatalogServing", "PostgresCatalog", "MapSyncCatalog", "Locks", "TestSupport", "Clustering",
                "VectorTiles", .product(name: "Clocks", package: "swift-clocks"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                // TLSTests' own client, to offer the server old versions and suites.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                // SessionLineWriterTests' channel, whose writability a test sets.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
