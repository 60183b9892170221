import Foundation

/// Where things are, seen from a test: the package, its fixtures and the
/// freshly built products. Everything a test reads is in the repository.
public enum Paths {
    /// The package root (this file is `Tests/TestSupport/Paths.swift`).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `SampleData/` of the package.
    public static let sampleData = packageRoot.appendingPathComponent("SampleData")

    /// `Tests/Fixtures/`, files the tests read.
    public static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures")

    /// `Tests/Fixtures/GeoNames/`: real GeoNames places (CC BY 4.0, see the
    /// NOTICE there): the 311 Korean places whole, and a 30,000-place
    /// worldwide subset that keeps the poles' neighbourhoods, the
    /// antimeridian and dense cities (`scripts/make-test-geonames` made it).
    public static let geoNames = fixtures.appendingPathComponent("GeoNames")

    /// The folder holding the built products (`carousel`) of this test run,
    /// whatever `--scratch-path` was used.
    public static let productsDirectory: URL = {
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            return Bundle.main.bundleURL.deletingLastPathComponent()
        #else
            // On Linux the test runner is an executable in the products folder.
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
                .deletingLastPathComponent()
        #endif
    }()
}
