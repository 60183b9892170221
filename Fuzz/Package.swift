// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, one per input format the carousel reads: CSV, TSV,
// JSON, JSON Lines, GeoJSON and scroll scripts; and three over what the
// server reads from clients: a session's messages, an import's body and a
// `POST /simulate` body, each through the server's own code with its
// limits. Kept out of the main package so its normal build never sees
// them; `scripts/fuzz` builds them with `-sanitize=fuzzer,address
// -parse-as-library` (as swift-protobuf's FuzzTesting package does) and
// runs each for a bounded time.
//
// Each target is an executable without top-level code: its entry point
// hands libFuzzer's driver the target's `LLVMFuzzerTestOneInput`, which it
// calls with each input. The server's targets reach its internal readers
// with `@testable import`, which the debug builds `scripts/fuzz` makes
// allow (SwiftPM compiles debug builds with testing enabled).
let formats = ["CSV", "TSV", "JSON", "JSONLines", "GeoJSON"]
let serverInputs = ["SessionMessage", "ImportBody", "SimulateBody"]

let package = Package(
    name: "MapCarouselFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MapCarousel", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "StoreCatalog", package: "MapCarousel")]
        ),
        .executableTarget(
            name: "FuzzScrollScript",
            dependencies: ["FuzzSupport", .product(name: "MapSync", package: "MapCarousel"), .product(name: "MapSyncSimulation", package: "MapCarousel")]
        ),
    ]
        + formats.map { format in
            .executableTarget(name: "Fuzz\(format)", dependencies: ["FuzzSupport"])
        }
        + serverInputs.map { input in
            .executableTarget(
                name: "Fuzz\(input)",
                dependencies: [
                    "FuzzSupport",
                    .product(name: "CarouselServer", package: "MapCarousel"),
                    .product(name: "MapSync", package: "MapCarousel"),
                    .product(name: "MapSyncCatalog", package: "MapCarousel"),
                    .product(name: "Hummingbird", package: "hummingbird"),
                    .product(name: "NIOCore", package: "swift-nio"),
                ]
            )
        },
    swiftLanguageModes: [.v6]
)
