import Foundation
import TestSupport
import Testing

/// That `MapSyncAppModel` is main-actor isolated, checked by the compiler:
/// a call from a nonisolated function must not compile, the same call from
/// a `@MainActor` one must. Type-checks a small file against the modules
/// this test run built (`<products>/Modules`), with the `swiftc` on `PATH`.
@Suite struct MainActorIsolationTests {
    /// The type-checker's exit status and messages for `source`.
    func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        let directory = try TemporaryDirectory("main-actor")
        let file = try directory.write("Client.swift", source)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-typecheck", "-swift-version", "6",
            "-I", Paths.productsDirectory.appendingPathComponent("Modules").path, file.path,
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    @Test func aCallFromTheMainActorCompiles() throws {
        let result = try typecheck(
            """
            import MapSync
            @MainActor func onMain(_ model: MapSyncAppModel) throws {
                try model.tapMarker(0)
                model.finish()
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test func aCallFromANonisolatedFunctionDoesNotCompile() throws {
        // What a URLSession completion handler is: a nonisolated closure.
        let result = try typecheck(
            """
            import MapSync
            func fromAnyThread(_ model: MapSyncAppModel) throws {
                try model.tapMarker(0)
            }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("main actor-isolated instance method 'tapMarker'"), "\(result.output)")
    }

    @Test func theThreadSafeCoreStaysCallableFromAnyThread() throws {
        // The server's sessions call the core off the main actor.
        let result = try typecheck(
            """
            import MapSync
            func fromAnyThread(_ model: MapSyncAppModel) throws {
                try model.core.tapMarker(0)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }
}
