import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import TestSupport
import Testing

/// Scroll scripts read from their file in a stream read as `init(json:)`
/// reads them, fail the same way, and simulate the same timeline.
@Suite("Scroll script files")
struct ScrollScriptFileTests {
    private func write(_ text: String) throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        return (directory, try directory.write("script.json", text).path)
    }

    @Test("every sample script gives the same header, events and timeline read either way")
    func samplesReadAlike() throws {
        let folder = Paths.packageRoot.appendingPathComponent("SampleData/scripts")
        let stores = sampleStores(44)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).filter({ $0.hasSuffix(".json") }) {
            let path = folder.appendingPathComponent(name).path
            let whole = try ScrollScript(json: Data(contentsOf: URL(fileURLWithPath: path)))
            let file = try ScrollScriptFile(path: path)
            var header = whole
            header.events = []
            #expect(file.script == header, "\(name)")
            #expect(file.eventCount == whole.events.count, "\(name)")
            var events = try file.makeEvents()
            var streamed: [ScrollScript.Event] = []
            while let event = try events.next() { streamed.append(event) }
            #expect(streamed == whole.events, "\(name)")
            let expected = try ScrollSimulation(script: whole, stores: stores).run(trace: true).timeline
            let actual = try ScrollSimulation(file: file, stores: stores).run(trace: true).timeline
            #expect(actual == expected, "\(name)")
        }
    }

    @Test("members in any order, events first included")
    func membersInAnyOrder() throws {
        let (directory, path) = try write(#"{"events": [{"at": 5, "scrollTo": 2}], "initialIndex": 1, "layout": {"viewport": 400, "debounceMs": 100}}"#)
        _ = directory
        let file = try ScrollScriptFile(path: path)
        #expect(file.script.initialIndex == 1)
        #expect(file.script.layout.viewport == 400)
        #expect(file.script.debounceMs == 100)
        var events = try file.makeEvents()
        #expect(try events.next() == ScrollScript.Event(at: 5, .scrollTo(2, animated: true)))
        #expect(try events.next() == nil)
    }

    @Test(
        "a bad event fails before anything runs, named by its position and time",
        arguments: [
            (
                #"{"events": [{"at": 10, "offset": 1}, {"at": 5, "offset": 2}]}"#,
                "event 2 (at 5): events out of order: at 5 comes after 10; list events in time order"
            ),
            (
                #"{"events": [{"at": 0, "end": true}, {"at": 1, "offset": 2}]}"#,
                "event 1: end must be the last event: nothing happens after the input completes"
            ),
            (#"{"events": [{"at": 0, "drag": {"by": 1, "durationMs": -1}}]}"#, "event 1 (at 0): drag.durationMs must be a finite number of ms ≥ 0 (got -1)"),
            (
                #"{"events": [{"at": 0, "tapMaker": 1}]}"#,
                "event 1 (at 0): unknown event 'tapMaker': an event is one of drag, offset, scrollTo, tapMarker, autoplay, pause, accessibilityScroll, end"
            ),
            (#"{"layout": {}}"#, #"scroll script: the script has no "events" array: give at least [] "#),
            (
                #"{"events": [{"at": 0, "offset": 1}"#,
                "scroll script: not valid JSON: expected ',' or ']' after an element, found the end of the file (line 1, column 35)"
            ),
            // JSONDecoder keeps the last of repeated names: the issue's class of
            // strict-JSON defects, in scripts too.
            (
                #"{"events": [{"at": 0, "at": 500, "tapMarker": 1}]}"#,
                #"event 1: duplicate member "at": each name may appear once in an object (line 1, column 21)"#
            ),
            (
                #"{"events": [{"at": 0, "drag": {"by": 1, "by": 2, "durationMs": 5}}]}"#,
                #"event 1: duplicate member "by": each name may appear once in an object (line 1, column 39)"#
            ),
            (
                #"{"initialIndex": 0, "initialIndex": 3, "events": []}"#,
                #"scroll script: duplicate member "initialIndex": each name may appear once in an object"#
            ),
            (
                #"{"layout": {"viewport": 1, "vie\u0077port": 2}, "events": []}"#,
                #"scroll script: duplicate member "viewport": each name may appear once in an object (line 1, column 26)"#
            ),
        ])
    func badEventsFail(json: String, message: String) throws {
        let (directory, path) = try write(json)
        _ = directory
        let error = #expect(throws: ScrollScriptError.self) { try ScrollScriptFile(path: path) }
        #expect(error?.description == message)
    }

    @Test(
        "a repeated name is refused by the whole-document reader as well",
        arguments: [
            #"{"events": [{"at": 0, "at": 500, "tapMarker": 1}]}"#,
            #"{"events": [], "events": []}"#,
            #"{"map": {"mapWidth": 390, "mapWidth": 400}, "events": []}"#,
        ])
    func duplicatesRefusedWhole(json: String) throws {
        let error = #expect(throws: ScrollScriptError.self) { try ScrollScript(json: Data(json.utf8)) }
        #expect(error?.reason.hasPrefix("duplicate member ") == true, "\(String(describing: error))")
        // The same name in different objects is no duplicate.
        _ = try ScrollScript(json: Data(#"{"events": [{"at": 0, "offset": 1}, {"at": 1, "offset": 2}]}"#.utf8))
    }

    @Test("store indices are checked against the list before anything runs")
    func indicesAreChecked() throws {
        let (directory, path) = try write(#"{"events": [{"at": 0, "scrollTo": 1}, {"at": 9, "tapMarker": 12}]}"#)
        _ = directory
        let file = try ScrollScriptFile(path: path)
        let error = #expect(throws: ScrollScriptError.self) { try ScrollSimulation(file: file, stores: sampleStores(8)) }
        #expect(error?.description == "event 2 (at 9): tapMarker 12 is out of range: the list has 8 stores (0...7)")
        _ = try ScrollSimulation(file: file, stores: sampleStores(13))
    }
}
