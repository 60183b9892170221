import Foundation
import TestSupport
import Testing

/// StoreCatalog's privacy manifest declares a reason for every API with a
/// required reason that an app-facing module calls, so an App Store upload
/// of an app that links it is not refused (ITMS-91053).
@Suite struct PrivacyManifestTests {
    /// The file-timestamp APIs of Apple's list, as they are called in Swift.
    static let fileTimestampCalls = ["stat(", "fstat(", "lstat(", "fstatat(", "getattrlist(", ".modificationDate", ".creationDate"]
    /// Each app-facing module's sources (what an app links).
    static let appFacingModules = [
        "Geo", "StoreCatalog", "CarouselEngine", "Clustering", "Observables", "MapCamera", "MapSync", "MapSyncSimulation",
        "MapSyncCatalog", "OpeningHours", "Locks", "TextInput", "WorkLanes",
    ]

    @Test func theManifestDeclaresTheFileTimestampReasonThatStatNeeds() throws {
        let url = Paths.packageRoot.appendingPathComponent("Sources/StoreCatalog/PrivacyInfo.xcprivacy")
        let manifest = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil) as? [String: Any])
        #expect(manifest["NSPrivacyTracking"] as? Bool == false)
        let types = try #require(manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        let timestamp = types.first { $0["NSPrivacyAccessedAPIType"] as? String == "NSPrivacyAccessedAPICategoryFileTimestamp" }
        #expect(timestamp?["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["C617.1"])
    }

    /// Where the app-facing modules call such an API: only StoreCatalog,
    /// whose manifest says why. A call added elsewhere fails here until
    /// that module has a manifest of its own.
    @Test func onlyStoreCatalogCallsAFileTimestampAPI() throws {
        var callers: Set<String> = []
        for module in Self.appFacingModules {
            let folder = Paths.packageRoot.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                let code = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
                    .filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                if code.contains(where: { line in Self.fileTimestampCalls.contains { line.contains($0) } }) { callers.insert(module) }
            }
        }
        #expect(callers == ["StoreCatalog"])
    }
}
