// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, one per input format the carousel reads: CSV, TSV,
// JSON, JSON Lines, GeoJSON and scroll scripts. Kept out of the main
// package so its normal build never sees them; `scripts/fuzz` builds them
// with `-sanitize=fuzzer,address -parse-as-library` (as swift-protobuf's
// FuzzTesting package does) and runs each for a bounded time.
//
// Each target is an executable without top-level code: its entry point
// hands libFuzzer's driver the target's `LLVMFuzzerTestOneInput`, which it
// calls with each input.
let formats = ["CSV", "TSV", "JSON", "JSONLines", "GeoJSON"]

let package = Package(
    name: "MapCarouselFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "MapCarousel", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "StoreCatalog", package: "MapCarousel")]
        ),
        .executableTarget(
            name: "FuzzScrollScript",
            dependencies: ["FuzzSupport", .product(name: "MapSync", package: "MapCarousel"), .product(name: "MapSyncSimulation", package: "MapCarousel")]
        ),
    ] + formats.map { format in
        .executableTarget(name: "Fuzz\(format)", dependencies: ["FuzzSupport"])
    },
    swiftLanguageModes: [.v6]
)
