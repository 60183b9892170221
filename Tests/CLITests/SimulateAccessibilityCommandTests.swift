import Foundation
import TestSupport
import Testing

/// `carousel simulate`'s accessibility flags (issue 44): `--autoplay`,
/// `--autoplay-end`, `--reduce-motion`, `--status-template`, with `--rtl`;
/// every bad value one line on stderr.
@Suite("carousel simulate: accessibility")
struct SimulateAccessibilityCommandTests {
    let catalog: SampleCatalog
    var db: String { catalog.db }

    init() throws {
        catalog = try SampleCatalog()
    }

    private func simulate(_ script: String, _ extra: [String] = []) throws -> CarouselProcess.Result {
        let path = Paths.sampleData.appendingPathComponent("scripts/\(script).json").path
        return try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", path] + extra)
    }

    private func types(_ result: CarouselProcess.Result) -> [String] {
        result.lines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["type"] as? String
        }
    }

    @Test func theAutoplayScriptPrintsStatusAndAutoplayLines() throws {
        let result = try simulate("autoplay", ["--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.contains(#"{"t":0,"type":"autoplay","playing":true,"reasons":[]}"#))
        #expect(result.lines.contains(#"{"t":7000,"type":"autoplay","playing":false,"reasons":["hover"]}"#))
        // VoiceOver pages: the status at once, with the store's name.
        #expect(result.lines.contains { $0.hasPrefix(#"{"t":16000,"type":"status","index":"#) && $0.contains(#""text":"Store "#) })
        #expect(result.lines.contains(#"{"t":24000,"type":"autoplay","playing":false,"reasons":["userStop"]}"#))
        #expect(Set(types(result)) == ["camera", "marker", "status", "autoplay"])
    }

    @Test func rtlAutoplayTurnsToTheSameStoresAsLeftToRight() throws {
        let ltr = try simulate("autoplay", ["--json", "--autoplay", "2000"])
        let rtl = try simulate("autoplay", ["--json", "--autoplay", "2000", "--rtl"])
        #expect(ltr.status == 0 && rtl.status == 0, "\(ltr.stderr)\(rtl.stderr)")
        // Cameras, markers, statuses and autoplay states carry no offsets:
        // the same lines in both directions.
        #expect(ltr.lines == rtl.lines)
        #expect(ltr.lines.filter { $0.contains(#""type":"camera""#) }.count > 5)
    }

    @Test func reducedMotionStartsPausedAndJumps() throws {
        let result = try simulate("autoplay", ["--json", "--trace", "--reduce-motion"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.first { $0.contains(#""type":"autoplay""#) } == #"{"t":0,"type":"autoplay","playing":false,"reasons":["reducedMotion"]}"#)
        let scrolls = result.lines.filter { $0.contains(#""type":"scroll""#) }
        #expect(!scrolls.isEmpty && scrolls.allSatisfy { $0.hasSuffix(#""animated":false}"#) })
    }

    @Test func aStatusTemplateFlagAddsStatusLinesToAnyScript() throws {
        let result = try simulate("gentle-swipe", ["--json", "--status-template", "{position}/{count}: {name}"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.filter { $0.contains(#""type":"status""#) }.count == 1)
        #expect(result.lines.contains { $0.hasPrefix(#"{"t":1350,"type":"status","index":1,"text":"2/44: "#) })
    }

    @Test(
        "a bad value is one line on stderr",
        arguments: [
            (["--autoplay", "0"], "Error: --autoplay: autoplay interval must be a number of ms above 0 and at most 86400000 (a day); got 0"),
            (["--autoplay", "-5"], "Error: --autoplay: autoplay interval must be a number of ms above 0 and at most 86400000 (a day); got -5"),
            (
                ["--autoplay", "86400001"],
                "Error: --autoplay: autoplay interval must be a number of ms above 0 and at most 86400000 (a day); got 86400001"
            ),
            (
                ["--status-template", "Store {nmae}"],
                "Error: --status-template: unknown placeholder {nmae}; known placeholders: {position}, {count}, {name}, {id}, {hours}, {distance}"
            ),
            (["--autoplay", "abc"], "Error: The value 'abc' is invalid for '--autoplay <MS>'"),
            (
                ["--autoplay", "5000", "--autoplay-end", "loop"],
                "Error: The value 'loop' is invalid for '--autoplay-end <autoplay-end>'. Please provide one of 'rewind' and 'stop'."
            ),
            (
                ["--autoplay-end", "stop"],
                "Error: --autoplay-end only applies to autoplay: give --autoplay MS too (or the script's autoplayMs)"
            ),
        ])
    func badValues(arguments: [String], message: String) throws {
        let result = try simulate("gentle-swipe", arguments)
        #expect(result.status != 0)
        #expect(result.stderr == message + "\n", "\(result.stderr)")
    }

    @Test func anUnknownPauseReasonOrAutoplayWithoutAnEndIsOneLine() throws {
        let folder = try TemporaryDirectory("carousel-a11y")
        let script = folder.path("typing.json")
        try Data(#"{"events": [{"at": 10, "pause": "typing", "on": true}]}"#.utf8).write(to: script)
        let result = try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", script.path])
        #expect(result.status != 0)
        #expect(
            result.stderr
                == "Error: \(script.path): event 1 (at 10): unknown pause reason 'typing': a pause reason is one of voiceOver, focus, hover, background, offscreen, mapGesture\n"
        )
        let endless = try simulate("gentle-swipe", ["--autoplay", "5000"])
        #expect(endless.status != 0)
        #expect(endless.stderr.split(separator: "\n").count == 1, "\(endless.stderr)")
        #expect(endless.stderr.contains(#"end the script with an {"at": t, "end": true} event"#), "\(endless.stderr)")
    }
}
