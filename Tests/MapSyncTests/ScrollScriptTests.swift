import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import Testing

/// Reading scroll scripts: the documented example, defaults, and
/// errors that name the event and leave nothing simulated.
@Suite struct ScrollScriptTests {
    private func script(_ json: String) throws(ScrollScriptError) -> ScrollScript {
        try ScrollScript(json: Data(json.utf8))
    }

    /// The message a script fails with, read against a list of `storeCount` stores.
    private func failure(_ json: String, storeCount: Int = 8) -> String? {
        do {
            _ = try ScrollSimulation(script: script(json), stores: sampleStores(storeCount))
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theSpecExampleReadsAsWritten() throws {
        let read = try script(
            """
            {"layout": {"viewport": 390, "itemLength": 300, "spacing": 12,
                        "behavior": "groupPagingCentered", "debounceMs": 250},
             "events": [
               {"at": 0,    "drag": {"by": 180, "durationMs": 150, "velocity": 1.1}},
               {"at": 1400, "offset": 936},
               {"at": 2000, "scrollTo": 2, "animated": true},
               {"at": 2600, "tapMarker": 5},
               {"at": 4000, "end": true}
             ]}
            """)
        #expect(
            read
                == ScrollScript(
                    layout: LayoutSpec(viewport: 390, itemLength: 300, spacing: 12, behavior: .groupPagingCentered),
                    debounceMs: 250,
                    events: [
                        .init(at: 0, .drag(by: 180, durationMs: 150, velocity: 1.1)),
                        .init(at: 1400, .offset(936)),
                        .init(at: 2000, .scrollTo(2, animated: true)),
                        .init(at: 2600, .tapMarker(5)),
                        .init(at: 4000, .end),
                    ]))
    }

    @Test func defaultsFillWhatIsLeftOut() throws {
        let read = try script(#"{"layout": {"zoom": 15}, "initialIndex": 3, "events": [{"at": 0, "scrollTo": 1}]}"#)
        #expect(read.layout == LayoutSpec())
        #expect(read.resolvedDebounceMs == 250)
        #expect(read.resolvedZoom == 15)
        #expect(read.initialIndex == 3)
        #expect(read.events == [.init(at: 0, .scrollTo(1, animated: true))])
    }

    @Test(arguments: [
        (
            #"{"events": [{"at": 0, "offset": 1}, {"at": 100, "jump": 2}]}"#,
            "event 2 (at 100): unknown event 'jump': an event is one of drag, offset, scrollTo, tapMarker, autoplay, pause, accessibilityScroll, end"
        ),
        (
            #"{"events": [{"at": 0, "offset": 1}, {"at": 900, "offset": 2}, {"at": 1400, "scrollTo": 12}]}"#,
            "event 3 (at 1400): scrollTo 12 is out of range: the list has 8 stores (0...7)"
        ),
        (
            #"{"events": [{"at": 0, "tapMarker": -1}]}"#,
            "event 1 (at 0): tapMarker -1 is out of range: the list has 8 stores (0...7)"
        ),
        (
            #"{"events": [{"at": 1400, "offset": 1}, {"at": 900, "offset": 2}]}"#,
            "event 2 (at 900): events out of order: at 900 comes after 1400; list events in time order"
        ),
        (
            #"{"events": [{"at": 0, "drag": {"by": 100, "durationMs": -5}}]}"#,
            "event 1 (at 0): drag.durationMs must be a finite number of ms ≥ 0 (got -5)"
        ),
        (
            #"{"events": [{"at": 0, "drag": {"by": 100, "durationMs": 0}}]}"#,
            "event 1 (at 0): a drag over 0 ms has no speed of its own: give drag.velocity"
        ),
        (
            #"{"events": [{"at": 0, "drag": {"by": 100, "duration": 50}}]}"#,
            "event 1 (at 0): unknown key 'duration' in drag; known keys: by, durationMs, velocity"
        ),
        (
            #"{"events": [{"at": 0, "drag": {"by": "far", "durationMs": 50}}]}"#,
            "event 1 (at 0): drag.by must be a number"
        ),
        (
            #"{"events": [{"at": 0, "drag": {"durationMs": 50}}]}"#,
            "event 1 (at 0): drag.by is missing"
        ),
        (
            #"{"events": [{"at": "soon", "offset": 1}]}"#,
            "event 1: at must be a number"
        ),
        (
            #"{"events": [{"offset": 1}]}"#,
            "event 1: at is missing"
        ),
        (
            #"{"events": [{"at": -1, "offset": 1}]}"#,
            "event 1 (at -1): at must be a finite number of ms ≥ 0"
        ),
        (
            #"{"events": [{"at": 0, "scrollTo": 2.5}]}"#,
            "event 1 (at 0): scrollTo must be a whole number (got 2.5)"
        ),
        (
            #"{"events": [{"at": 0, "offset": 1, "tapMarker": 2}]}"#,
            "event 1 (at 0): one event per entry, got offset and tapMarker: split them into separate entries"
        ),
        (
            #"{"events": [{"at": 0, "offset": 1, "animated": true}]}"#,
            "event 1 (at 0): animated only applies to scrollTo"
        ),
        (
            #"{"events": [{"at": 0, "end": true}, {"at": 10, "offset": 1}]}"#,
            "event 1 (at 0): end must be the last event: nothing happens after the input completes"
        ),
        (
            #"{"events": [{"at": 0, "end": false}]}"#,
            "event 1 (at 0): end must be true (leave it out to run until nothing is pending)"
        ),
        (
            #"{"events": [3]}"#,
            "event 1: the entry must be an object"
        ),
        (
            #"{"initialIndex": 8, "events": []}"#,
            "scroll script: initialIndex 8 is out of range: the list has 8 stores (0...7)"
        ),
        (
            #"{"event": []}"#,
            "scroll script: unknown key 'event' in the script; known keys: layout, map, initialIndex, events"
        ),
        (
            #"{"layout": {"debounceMs": -1}, "events": []}"#,
            "scroll script: layout.debounceMs must be a finite number of ms ≥ 0 (got -1)"
        ),
        (
            #"{"layout": {"viewport": -390}, "events": []}"#,
            "scroll script: invalid layout: viewport must be a number of points in 0.001...1000000000 (got -390.0)"
        ),
        (
            #"{"layout": {"viewport": "wide"}, "events": []}"#,
            "scroll script: layout.viewport must be a number"
        ),
    ])
    func aBadScriptIsOneClearMessageNamingTheEvent(json: String, message: String) {
        #expect(failure(json) == message)
    }

    @Test func anUnknownLayoutKeyIsNamed() throws {
        let message = try #require(failure(#"{"layout": {"itemLenght": 300}, "events": []}"#))
        #expect(message.contains("unknown layout key 'itemLenght'"), "\(message)")
    }

    @Test func textThatIsNotJSONSaysSo() throws {
        let message = try #require(failure("{events: []}"))
        #expect(message.hasPrefix("scroll script: not valid JSON"), "\(message)")
    }

    @Test func anEmptyListRejectsAnyStoreIndex() {
        #expect(
            failure(#"{"events": [{"at": 5, "tapMarker": 0}]}"#, storeCount: 0)
                == "event 1 (at 5): tapMarker 0 is out of range: the list is empty")
    }
}
