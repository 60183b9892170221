import Foundation

/// Where things are, seen from a test: the package, its fixtures, the shared
/// data set beside the checkout, and the freshly built products.
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

    /// `../shared/data`, the real GeoNames data (never copied into the repo).
    public static let sharedData = packageRoot
        .deletingLastPathComponent()
        .appendingPathComponent("shared/data")

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
