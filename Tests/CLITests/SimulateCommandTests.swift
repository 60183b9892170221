import Foundation
import TestSupport
import Testing

/// `carousel simulate`, run as a user runs it, over the sample stores
/// imported into a fresh database.
@Suite("carousel simulate")
struct SimulateCommandTests {
    let catalog: SampleCatalog
    var db: String { catalog.db }

    init() throws {
        catalog = try SampleCatalog()
    }

    private func simulate(_ script: String, _ extra: [String] = []) throws -> CarouselProcess.Result {
        let path = Paths.sampleData.appendingPathComponent("scripts/\(script).json").path
        return try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", path] + extra)
    }

    // gentle-swipe: the finger drags 120 pt from 500 to 750 ms and lifts at
    // 0.4 pt/ms. groupPagingCentered (single, fast 0.99): p = 120 + 0.4 · 0.99 /
    // 0.01 = 159.6 → ceil(159.6 / 312) = card 1, offset 312, decelerating.
    // Within 0.5 pt after ln(0.5 / 192) / ln 0.99 = 592.1 ms: the frame that
    // finds it settled is the 36th, 750 + 36 · 1000/60 = 1350; the camera
    // follows 250 ms later, at 1600.

    @Test func jsonLinesAreExactlyTheDocumentedTimeline() throws {
        let result = try simulate("gentle-swipe", ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                #"{"t":0,"type":"camera","index":0,"storeId":"hc-001","latitude":37.4979,"longitude":127.0276,"zoom":16}"#,
                #"{"t":0,"type":"marker","index":0,"storeId":"hc-001","previousIndex":null}"#,
                #"{"t":1600,"type":"camera","index":1,"storeId":"hc-002","latitude":37.5206,"longitude":127.023,"zoom":16}"#,
                #"{"t":1600,"type":"marker","index":1,"storeId":"hc-002","previousIndex":0}"#,
            ])
    }

    @Test func traceAddsFramesAndTheReleaseInTimeOrder() throws {
        let result = try simulate("gentle-swipe", ["--json", "--trace"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines.contains(
                #"{"t":750,"type":"release","velocity":0.4,"projected":159.59999999999997,"targetOffset":312,"index":1,"item":1,"motion":"decelerate"}"#))
        #expect(result.lines.contains(#"{"t":1350,"type":"frame","offset":312,"focus":1,"direction":"forward"}"#))
        // JSON numbers are exact: 500 + 1000/60 and the engine's 8 + ε read back to the same Doubles.
        #expect(result.lines.contains { $0.hasPrefix(#"{"t":516.6666666666666,"type":"frame","offset":8.000000000000002,"#) })
        let times = try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["t"] as? Double)
        }
        #expect(times == times.sorted())
        #expect(Set(result.lines.compactMap { $0.split(separator: "\"")[safe: 5] }) == ["camera", "marker", "frame", "release"])
    }

    @Test func humanOutputIsATableWithStoreNames() throws {
        let result = try simulate("gentle-swipe")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first?.hasPrefix("t (ms)  event") == true, "\(result.stdout)")
        let row = try #require(result.lines.first { $0.contains("1600") && $0.contains("camera") })
        #expect(row.contains("Haneul Coffee Garosu-gil") && row.contains("37.5206, 127.023"), "\(row)")
        #expect(result.lines.contains { $0.contains("marker selected (was #0)") })
    }

    @Test func layoutFlagsOverrideTheScript() throws {
        // No debounce: the camera follows the first frame focused on card 1,
        // mid-fling. Frame 2 after the release: 120 + 192 · (1 − 0.99^33.3)
        // = 174.6 pt, past half a page (156); frame 1 was at 149.6.
        let result = try simulate("gentle-swipe", ["--json", "--debounce-ms", "0", "--zoom", "14"])
        #expect(result.lines[safe: 2]?.hasPrefix(#"{"t":783.3333333333334,"type":"camera","index":1,"#) == true, "\(result.stdout)")
        #expect(result.lines[safe: 2]?.hasSuffix(#""zoom":14}"#) == true)
    }

    @Test func aMarkerTapMovesTheMapAtOnceAndTheSettlingScrollDoesNotEcho() throws {
        let result = try simulate("marker-tap", ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let cameras = result.lines.filter { $0.contains(#""type":"camera""#) }
        #expect(cameras.count == 3)
        #expect(cameras.last?.hasPrefix(#"{"t":1500,"type":"camera","index":9,"#) == true, "\(cameras)")
    }

    // gentle-swipe seen in a mirror: on a right-to-left carousel the same
    // gesture drags the content offset by −120 at −0.4 pt/ms. Card 0 rests at
    // the right end, 43 · 312 = 13416 (44 stores), card 1 at 13104.
    @Test func rtlRunsTheMirroredSwipeToTheSameTimeline() throws {
        let script = try catalog.folder.write(
            "gentle-swipe-rtl.json",
            #"{"layout": {"viewport": 390, "itemLength": 300, "spacing": 12, "behavior": "groupPagingCentered"}, "#
                + #""events": [{"at": 500, "drag": {"by": -120, "durationMs": 250, "velocity": -0.4}}]}"#)
        let run = { (extra: [String]) in
            try CarouselProcess.run(["simulate", "--db", self.db, "--list", "coffee", "--script", script.path] + extra)
        }
        let rtl = try run(["--rtl", "--json"])
        #expect(rtl.status == 0, "\(rtl.stderr)")
        let ltr = try simulate("gentle-swipe", ["--json"])
        #expect(rtl.lines == ltr.lines && rtl.lines.count == 4, "\(rtl.stdout)")
        let trace = try run(["--rtl", "--json", "--trace"])
        #expect(
            trace.lines.contains { $0.hasPrefix(#"{"t":750,"type":"release","velocity":-0.4,"#) && $0.contains(#""targetOffset":13104,"index":1,"#) },
            "\(trace.stdout)")
        #expect(trace.lines.contains(#"{"t":1350,"type":"frame","offset":13104,"focus":1,"direction":"forward"}"#), "\(trace.stdout)")
        // Without --rtl the same script drags toward nothing: card 0 stays.
        let unflipped = try run(["--json"])
        #expect(unflipped.status == 0 && unflipped.lines.count == 2, "\(unflipped.stdout)")
    }

    @Test func aScriptErrorNamesTheFileAndTheEventAndSimulatesNothing() throws {
        let script = try catalog.folder.write("bad.json", #"{"events": [{"at": 0, "offset": 10}, {"at": 1400, "scrollTo": 44}]}"#)
        let result = try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", script.path])
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Error: \(script.path): event 2 (at 1400): scrollTo 44 is out of range: the list has 44 stores (0...43)\n")
    }

    @Test func aMissingScriptOrListIsOneLine() throws {
        let missing = try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", catalog.folder.path("nope.json").path])
        #expect(missing.status != 0)
        #expect(missing.stderr.hasPrefix("Error: cannot read the script"), "\(missing.stderr)")
        let unknown = try simulate("gentle-swipe", ["--list", "tea"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.split(separator: "\n").count == 1, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("tea"), "\(unknown.stderr)")
    }
}

/// The 44 sample stores imported as list "coffee" into a fresh database,
/// with the `carousel import` command itself.
struct SampleCatalog {
    let folder: TemporaryDirectory
    let db: String

    init() throws {
        folder = try TemporaryDirectory()
        db = folder.path("catalog.sqlite").path
        let csv = Paths.sampleData.appendingPathComponent("seoul-coffee.csv").path
        let imported = try CarouselProcess.run(["import", csv, "--list", "coffee", "--db", db])
        try #require(imported.status == 0, "\(imported.stderr)")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
