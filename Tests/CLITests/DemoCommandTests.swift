import Foundation
import TestSupport
import Testing

/// `carousel demo`: the main job with no setup, from anywhere.
@Suite("carousel demo")
struct DemoCommandTests {
    @Test func itRunsFromAnyDirectoryAndPrintsATimelineAPersonCanFollow() throws {
        let elsewhere = try TemporaryDirectory()
        let result = try CarouselProcess.run(["demo"], directory: elsewhere.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("carousel demo:") == true, "\(result.stdout)")
        #expect(result.stdout.contains("Imported 44 Haneul Coffee stores"))
        #expect(result.stdout.contains("the user taps marker #12"))
        // One camera row per map move, each with its store's name.
        let cameras = result.lines.filter { $0.contains(" camera ") }
        #expect(cameras.first?.contains("Haneul Coffee Gangnam Station") == true, "\(result.stdout)")
        #expect(cameras.count >= 4, "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.url.path).isEmpty, "no files left behind")
    }

    @Test func jsonIsTheSimulateTimeline() throws {
        let result = try CarouselProcess.run(["demo", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        // The demo's map: 390 × 844 with the carousel's 240 pt at the bottom,
        // inset framing: the centre 120 pt south of the store (37.495857…,
        // worked out in CameraCommandTests), no animation for the first camera.
        #expect(
            result.lines.first
                == #"{"t":0,"type":"camera","index":0,"storeId":"hc-001","latitude":37.495857092703666,"longitude":127.0276,"zoom":16,"target":{"latitude":37.4979,"longitude":127.0276},"padding":{"top":0,"left":0,"bottom":240,"right":0},"animation":{"kind":"none","durationMs":0},"span":{"latitudeDelta":0.014368644501871586,"longitudeDelta":0.008368492126464844}}"#
        )
        for line in result.lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            #expect(["camera", "marker"].contains(object["type"] as? String), "\(line)")
        }
        // The tap on marker 12 moves the map at the tap, 4000 ms.
        #expect(result.lines.contains { $0.hasPrefix(#"{"t":4000,"type":"camera","index":12,"#) }, "\(result.stdout)")
    }

    @Test func traceAddsTheCarouselsFrames() throws {
        let result = try CarouselProcess.run(["demo", "--json", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains { $0.contains(#""type":"frame""#) })
        #expect(result.lines.contains { $0.contains(#""type":"scroll""#) })
    }

    @Test func withDbTheSampleListStaysInThatDatabase() throws {
        let folder = try TemporaryDirectory()
        let db = folder.path("demo.sqlite").path
        for _ in 0..<2 {  // twice: the list is replaced, not refused
            let result = try CarouselProcess.run(["demo", "--db", db])
            #expect(result.status == 0, "\(result.stderr)")
        }
        let lists = try CarouselProcess.run(["lists", "--db", db, "--json"])
        #expect(lists.stdout.contains(#""name":"seoul-coffee","count":44"#), "\(lists.stdout)")
    }

    @Test func theBinaryCopiedAloneStillHasItsSampleData() throws {
        let folder = try TemporaryDirectory()
        let copy = folder.path("carousel")
        try CarouselProcess.copyExecutable(to: copy)
        let process = Process()
        process.executableURL = copy
        process.arguments = ["demo", "--json"]
        process.currentDirectoryURL = folder.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(#"{"t":0,"type":"camera","index":0,"storeId":"hc-001""#))
    }
}
