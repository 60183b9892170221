import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import Observables
import TestSupport
import Testing

/// Autoplay in the simulator and the view model (issue 44): turns on the
/// virtual clock, its ends, its pauses, and the errors of its settings.
@Suite struct AutoplayTests {
    let stores = sampleStores(8)

    private func run(_ json: String, stores: some StoreDirectory) throws -> ScrollSimulation.Outcome {
        try ScrollSimulation(script: try ScrollScript(json: Data(json.utf8)), stores: stores).run(trace: true)
    }

    private func turns(_ outcome: ScrollSimulation.Outcome) -> [(time: Double, index: Int)] {
        outcome.timeline.compactMap { entry in
            if case .scroll(let command) = entry.kind { (entry.time, command.dataIndex) } else { nil }
        }
    }

    private func states(_ outcome: ScrollSimulation.Outcome) -> [TimelineEntry] {
        outcome.timeline.filter { $0.kind.name == "autoplay" }
    }

    @Test func anHourOfAutoplayIs720TurnsOnTheVirtualClock() throws {
        // 44 stores in a loop, 5 s apart, run to the hour: 720 turns, the
        // last at 3,600,000 ms (its 300-ms animation ends past the standard
        // hour of virtual time, so the limit is raised a little).
        let script = try ScrollScript(
            json: Data(#"{"layout": {"loop": true, "autoplayMs": 5000}, "events": [{"at": 3600001, "end": true}]}"#.utf8))
        let outcome = try ScrollSimulation(script: script, stores: sampleStores(44)).run(
            trace: true, limits: SimulationLimits(maxVirtualMs: 3_601_000, maxFrames: 2_000_000))
        let turns = turns(outcome)
        #expect(turns.count == 720)
        #expect(turns.first?.time == 5000 && turns.last?.time == 3_600_000)
        // Every turn is one page on, wrapping: 720 mod 44 = 16.
        #expect(turns.map(\.index) == (1...720).map { $0 % 44 })
        // It played throughout: one state line, at the start.
        #expect(states(outcome).map(\.kind) == [.autoplay(AutoplayState(isPlaying: true, reasons: []))])
    }

    @Test func withoutALoopItRewindsOrStopsAtTheEnd() throws {
        let rewind = try run(
            #"{"layout": {"autoplayMs": 1000}, "events": [{"at": 9500, "end": true}]}"#, stores: sampleStores(4))
        #expect(turns(rewind).map(\.index) == [1, 2, 3, 0, 1, 2, 3, 0, 1])
        let stop = try run(
            #"{"layout": {"autoplayMs": 1000, "autoplayEnd": "stop"}, "events": [{"at": 6500, "autoplay": "start"}, {"at": 9500, "end": true}]}"#,
            stores: sampleStores(4))
        // 1, 2, 3 at 1, 2, 3 s; at 4 s it stops; the user's play at 6.5 s
        // finds the last card: the next turn, at 7.5 s, stops again.
        #expect(turns(stop).map(\.index) == [1, 2, 3])
        #expect(
            states(stop).map { "\($0.time) \($0.kind)" } == [
                "0.0 \(TimelineEntry.Kind.autoplay(AutoplayState(isPlaying: true, reasons: [])))",
                "4000.0 \(TimelineEntry.Kind.autoplay(AutoplayState(isPlaying: false, reasons: [.end])))",
                "6500.0 \(TimelineEntry.Kind.autoplay(AutoplayState(isPlaying: true, reasons: [])))",
                "7500.0 \(TimelineEntry.Kind.autoplay(AutoplayState(isPlaying: false, reasons: [.end])))",
            ])
    }

    @Test func itPausesWhileAnyReasonHoldsAndRestartsTheIntervalOnResume() throws {
        let outcome = try run(
            #"""
            {"layout": {"autoplayMs": 1000, "loop": true},
             "events": [
               {"at": 500, "pause": "hover", "on": true},
               {"at": 700, "pause": "voiceOver", "on": true},
               {"at": 1500, "pause": "hover", "on": false},
               {"at": 2200, "pause": "voiceOver", "on": false},
               {"at": 2900, "autoplay": "stop"},
               {"at": 3000, "pause": "focus", "on": true},
               {"at": 3100, "pause": "focus", "on": false},
               {"at": 5000, "autoplay": "start"},
               {"at": 6500, "end": true}]}
            """#, stores: stores)
        // Paused from 500 to 2200; the interval starts again at 2200, so the
        // first turn is at 3200 — but the user stops it at 2900 (focus comes
        // and goes meanwhile: still stopped); play at 5000 → a turn at 6000.
        #expect(turns(outcome).map(\.time) == [6000])
        let lines = states(outcome).map { entry -> String in
            guard case .autoplay(let state) = entry.kind else { return "" }
            return "\(Int(entry.time)) \(state.isPlaying ? "playing" : "paused") \(state.reasons.map(\.rawValue))"
        }
        #expect(
            lines == [
                "0 playing []", "500 paused [\"hover\"]", "700 paused [\"hover\", \"voiceOver\"]", "1500 paused [\"voiceOver\"]",
                "2200 playing []", "2900 paused [\"userStop\"]", "3000 paused [\"focus\", \"userStop\"]", "3100 paused [\"userStop\"]",
                "5000 playing []",
            ])
    }

    @Test func aDragAndAMarkerTapPauseItUntilTheCarouselSettles() throws {
        let outcome = try run(
            #"""
            {"layout": {"autoplayMs": 1000},
             "events": [
               {"at": 100, "drag": {"by": 200, "durationMs": 200, "velocity": 0.5}},
               {"at": 2000, "tapMarker": 5},
               {"at": 6000, "end": true}]}
            """#, stores: stores)
        let lines = states(outcome).map { entry -> String in
            guard case .autoplay(let state) = entry.kind else { return "" }
            return "\(state.isPlaying ? "playing" : "paused") \(state.reasons.map(\.rawValue))"
        }
        #expect(lines == ["playing []", "paused [\"drag\"]", "playing []", "paused [\"markerTap\"]", "playing []"])
        let resumed = states(outcome).filter {
            if case .autoplay(let state) = $0.kind { state.isPlaying } else { false }
        }.map(\.time)
        // Each resume restarts the interval: a turn 1000 ms after each, until the next pause.
        let turnTimes = turns(outcome).filter { entry in outcome.timeline.contains { $0.time == entry.time && $0.kind.name == "release" } == false }
            .map(\.time)
        #expect(turnTimes.contains(resumed[1] + 1000))
        #expect(!turnTimes.contains { $0 > resumed[0] && $0 < resumed[0] + 1000 })
    }

    // MARK: Input errors

    @Test func anIntervalOutOfRangeIsAThrownError() throws {
        for interval in [0, -5000, 86_400_001, .infinity, .nan] as [Double] {
            #expect(throws: AutoplayError.self) { try AutoplaySettings(intervalMs: interval) }
        }
        #expect(try AutoplaySettings(intervalMs: 86_400_000).intervalMs == 86_400_000)
        #expect(try AutoplaySettings().intervalMs == 5000)
        #expect(
            AutoplayError.interval(0).description
                == "autoplay interval must be a number of ms above 0 and at most 86400000 (a day); got 0")
        for json in [
            #"{"layout": {"autoplayMs": 0}, "events": []}"#, #"{"layout": {"autoplayMs": -1}, "events": []}"#,
            #"{"layout": {"autoplayMs": 86400001}, "events": []}"#,
        ] {
            #expect {
                try ScrollScript(json: Data(json.utf8))
            } throws: { error in
                "\(error)".hasPrefix("scroll script: layout.autoplayMs: autoplay interval must be a number of ms above 0")
            }
        }
        #expect {
            try ScrollScript(json: Data(#"{"layout": {"autoplayEnd": "stop"}, "events": []}"#.utf8))
        } throws: { error in
            "\(error)" == "scroll script: layout.autoplayEnd only applies to autoplay: give layout.autoplayMs too"
        }
        #expect {
            try ScrollScript(json: Data(#"{"layout": {"autoplayMs": 5000, "autoplayEnd": "loop"}, "events": []}"#.utf8))
        } throws: { error in
            "\(error)" == "scroll script: layout.autoplayEnd must be rewind or stop (got 'loop')"
        }
    }

    @Test func anUnknownPauseReasonIsAThrownErrorNamingTheReasons() throws {
        #expect(throws: AutoplayError.unknownPauseReason("typing")) { try AutoplayPauseReason(externalName: "typing") }
        #expect(throws: AutoplayError.unknownPauseReason("drag")) { try AutoplayPauseReason(externalName: "drag") }
        let viewModel = MapSyncViewModel(scheduler: VirtualTimeScheduler())
        #expect(throws: AutoplayError.notExternal(.drag)) { try viewModel.setPause(.drag, true) }
        #expect {
            try ScrollScript(json: Data(#"{"events": [{"at": 10, "pause": "typing", "on": true}]}"#.utf8))
        } throws: { error in
            "\(error)"
                == "event 1 (at 10): unknown pause reason 'typing': a pause reason is one of voiceOver, focus, hover, background, offscreen, mapGesture"
        }
        #expect {
            try ScrollScript(json: Data(#"{"events": [{"at": 10, "pause": "hover"}]}"#.utf8))
        } throws: { error in
            "\(error)" == #"event 1 (at 10): pause needs "on": true when the reason begins, false when it ends"#
        }
        #expect {
            try ScrollScript(json: Data(#"{"events": [{"at": 10, "accessibilityScroll": "left"}]}"#.utf8))
        } throws: { error in
            "\(error)" == "event 1 (at 10): accessibilityScroll must be next or previous (got 'left')"
        }
    }

    @Test func autoplayWithoutAnEndEventIsAnErrorInsteadOfRunningForever() throws {
        // Refused before anything runs (POST /simulate answers 422 with it).
        #expect {
            try ScrollSimulation(script: ScrollScript(autoplayMs: 5000, events: [.init(at: 100, .offset(0))]), stores: stores)
        } throws: { error in
            "\(error)" == #"scroll script: autoplay turns the carousel forever: end the script with an {"at": t, "end": true} event"#
        }
        let ended = try ScrollSimulation(script: ScrollScript(autoplayMs: 5000, events: [.init(at: 10_001, .end)]), stores: stores)
        #expect(try ended.run(trace: true).timeline.filter { $0.kind.name == "scroll" }.count == 2)
    }
}
