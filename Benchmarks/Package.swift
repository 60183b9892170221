// swift-tools-version: 6.1
import PackageDescription

// The benchmark suite (BENCHMARKS.md), kept out of the main package so that
// `swift build` / `swift test` never compile it (nor OpenCombine).
//
// One release-built executable of ours rather than ordo-one/benchmark: what
// we need is subprocess wall time and peak RSS (`wait4`), peers run in the
// same process run (sqlite3, OpenCombine) and ratios between them, which a
// small measuring executable does directly; ordo-one's malloc-interposer
// build alone took about 4.5 minutes here.
let package = Package(
    name: "MapCarouselBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "MapCarousel", path: ".."),
        // The pipeline benchmark's peer, and nothing else: never a dependency
        // of the main package.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // The sessions ramp's client (SessionLoad.swift).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        .executableTarget(
            name: "carousel-bench",
            dependencies: [
                .product(name: "StoreCatalog", package: "MapCarousel"),
                .product(name: "CarouselEngine", package: "MapCarousel"),
                .product(name: "Clustering", package: "MapCarousel"),
                .product(name: "Observables", package: "MapCarousel"),
                .product(name: "MapSync", package: "MapCarousel"),
                .product(name: "MapSyncSimulation", package: "MapCarousel"),
                .product(name: "SyntheticStores", package: "MapCarousel"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
