// swift-tools-version: 6.1
import PackageDescription

// Module map (SPEC §3): one direction of dependency.
//
//   StoreCatalog   — stores, lists, import, spatial queries, stored cluster indexes (GRDB, system libsqlite3)
//   CarouselEngine — pure math: layout, snapping, physics, visibility, focus, looping
//   Clustering     — supercluster-compatible marker clustering, pure (no SQLite)
//   Observables    — our own lightweight observable, operators and schedulers
//   MapCamera      — pure camera framing on a Web-Mercator map (insets, fit, keep, flyTo timing)
//   MapSync        — the view model: focus stream → camera + marker (engine + observables + camera)
//   carousel       — the thin CLI over all of them
//
// The engine and the observable know nothing of SQLite or the CLI.
let package = Package(
    name: "MapCarousel",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "StoreCatalog", targets: ["StoreCatalog"]),
        .library(name: "CarouselEngine", targets: ["CarouselEngine"]),
        .library(name: "Clustering", targets: ["Clustering"]),
        .library(name: "Observables", targets: ["Observables"]),
        .library(name: "MapCamera", targets: ["MapCamera"]),
        .library(name: "MapSync", targets: ["MapSync"]),
        // Seeded synthetic store lists (CSV) for the scale benchmark and tests.
        .library(name: "SyntheticStores", targets: ["SyntheticStores"]),
        .executable(name: "carousel", targets: ["carousel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    ],
    targets: [
        .target(
            name: "StoreCatalog",
            dependencies: ["Clustering", .product(name: "GRDB", package: "GRDB.swift")],
            // The schema's SQL, compiled into the binary so that it migrates
            // a database from any directory, copied anywhere (SPEC §3).
            // `Sources/StoreCatalog/Migrations` links to the top-level
            // `Migrations/`, the single source of truth.
            resources: [.embedInCode("Migrations")]
        ),
        .target(name: "CarouselEngine"),
        // supercluster-compatible marker clustering: pure Swift, no SQLite.
        .target(name: "Clustering"),
        // Synthetic store lists of any size, streamed as CSV: the scale
        // benchmark's 10⁷-store files and the tests' small ones. Depends on
        // nothing, so the benchmark package can use it as well.
        .target(name: "SyntheticStores"),
        .target(name: "Observables"),
        // Camera framing on a Web-Mercator map: insets, fit, keep, flyTo timing.
        .target(name: "MapCamera"),
        .target(name: "MapSync", dependencies: ["CarouselEngine", "Observables", "MapCamera"]),
        .executableTarget(
            name: "carousel",
            dependencies: [
                "StoreCatalog", "CarouselEngine", "Observables", "MapCamera", "MapSync", "Clustering",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // `carousel demo`'s sample stores and scroll script, compiled in
            // so the binary runs it from any directory, copied anywhere.
            // `Sources/carousel/SampleData/` links to the top-level files.
            resources: [.embedInCode("SampleData")]
        ),

        // Shared by the test targets: seeded randomness, temporary files,
        // running the built `carousel` binary, fixture paths.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "StoreCatalogTests",
            dependencies: ["StoreCatalog", "TestSupport"]
        ),
        .testTarget(
            name: "ClusteringTests",
            dependencies: [
                "Clustering", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
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
        .target(name: "ObservablesTesting", dependencies: ["Observables"], path: "Tests/ObservablesTesting"),
        .testTarget(
            name: "MapCameraTests",
            dependencies: ["MapCamera", "TestSupport"]
        ),
        .testTarget(
            name: "ObservablesTests",
            dependencies: ["Observables", "ObservablesTesting", "TestSupport"]
        ),
        .testTarget(
            name: "MapSyncTests",
            dependencies: ["MapSync", "MapCamera", "CarouselEngine", "Observables", "ObservablesTesting", "TestSupport"]
        ),
        // End-to-end tests of the built binary; depending on the executable
        // makes `swift test` build it first.
        .testTarget(name: "CLITests", dependencies: ["carousel", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
