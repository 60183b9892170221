import CarouselEngine
import Foundation
import MapCamera
import MapSync
import MapSyncSimulation
import Observables
import TestSupport
import Testing

/// Accessibility in the view model and the simulator (issue 44): VoiceOver
/// paging and the status it speaks, reduced motion, and the errors of the
/// accessibility settings — all on virtual clocks.
@Suite struct AccessibilityTests {
    let scheduler = VirtualTimeScheduler()
    let stores = sampleStores(8)

    /// Everything the view model sends, in order, with its time.
    final class Log: @unchecked Sendable {
        var entries: [TimelineEntry] = []
    }

    private func record(_ viewModel: MapSyncViewModel) -> Log {
        let log = Log()
        let scheduler = scheduler
        @Sendable func add(_ kind: TimelineEntry.Kind) { log.entries.append(TimelineEntry(time: scheduler.now, kind)) }
        _ = viewModel.camera.subscribe(onNext: { add(.camera($0)) })
        _ = viewModel.marker.subscribe(onNext: { add(.marker($0)) })
        _ = viewModel.carouselScroll.subscribe(onNext: { add(.scroll($0)) })
        _ = viewModel.accessibilityStatus.subscribe(onNext: { add(.status($0)) })
        _ = viewModel.autoplay.subscribe(onNext: { add(.autoplay($0)) })
        return log
    }

    private func statuses(_ entries: [TimelineEntry]) -> [AccessibilityStatus] {
        entries.compactMap { if case .status(let status) = $0.kind { status } else { nil } }
    }

    @Test func accessibilityScrollMovesTheMapAtOnceCommandsTheScrollAndSpeaksTheStatus() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let log = record(viewModel)
        let layout = try layout(8)
        try viewModel.load(stores, layout: layout)
        scheduler.advance(to: 1000)
        log.entries.removeAll()
        #expect(viewModel.accessibilityScroll(.next))
        // No debounce: camera, marker, the scroll and the status, all at 1000.
        #expect(log.entries.map(\.time) == [1000, 1000, 1000, 1000])
        #expect(log.entries.map(\.kind.name) == ["camera", "marker", "scroll", "status"])
        #expect(statuses(log.entries) == [AccessibilityStatus(index: 1, text: "Store 2 of 8, s1")])
        if case .scroll(let command) = log.entries[2].kind {
            #expect(command == ScrollCommand(index: 1, dataIndex: 1, targetOffset: 312, animated: true))
        }
        // The adjustable trait's increment and decrement are the same pages.
        viewModel.frame(Frame(time: 1300, offset: 312, index: 1, dataIndex: 1, direction: .forward, isSettled: true))
        #expect(viewModel.accessibilityIncrement())
        #expect(statuses(log.entries).last == AccessibilityStatus(index: 2, text: "Store 3 of 8, s2"))
        viewModel.frame(Frame(time: 1600, offset: 624, index: 2, dataIndex: 2, direction: .forward, isSettled: true))
        #expect(viewModel.accessibilityDecrement())
        #expect(statuses(log.entries).last?.index == 1)
    }

    @Test func atAnEndNothingMovesAndTheSameStatusIsSpokenAgain() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let log = record(viewModel)
        try viewModel.load(stores, layout: try layout(8))
        log.entries.removeAll()
        #expect(!viewModel.accessibilityScroll(.previous))
        #expect(!viewModel.accessibilityDecrement())
        #expect(log.entries.map(\.kind.name) == ["status", "status"])
        #expect(Set(statuses(log.entries)) == [AccessibilityStatus(index: 0, text: "Store 1 of 8, s0")])
    }

    @Test func aLocalizedTemplateWithTheDirectorysDetails() throws {
        struct Named: StoreDirectory {
            let base = sampleStores(3)
            var count: Int { base.count }
            func pin(at index: Int) throws -> StorePin { try base.pin(at: index) }
            func statusDetails(at index: Int) throws -> StoreStatusDetails {
                StoreStatusDetails(name: "Haneul Coffee \(index)", hours: "open until 22:00", distance: "\(350 + index) m")
            }
        }
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let log = record(viewModel)
        viewModel.setStatusTemplate(try StatusTemplate("Store {position} of {count}, {name}, {hours}, {distance} ({id})"))
        try viewModel.load(Named(), layout: try layout(3))
        viewModel.accessibilityScroll(.next)
        #expect(statuses(log.entries).map(\.text) == ["Store 2 of 3, Haneul Coffee 1, open until 22:00, 351 m (s1)"])
    }

    @Test func inRightToLeftNextIsTheNextStoreAtTheMirroredOffset() throws {
        let viewModel = MapSyncViewModel(scheduler: scheduler)
        let log = record(viewModel)
        let rtl = try layout(8, LayoutSpec(layoutDirection: .rightToLeft))
        try viewModel.load(stores, layout: rtl)
        viewModel.accessibilityScroll(.next)
        let command = log.entries.compactMap { if case .scroll(let command) = $0.kind { command } else { nil } }
        #expect(command == [ScrollCommand(index: 1, dataIndex: 1, targetOffset: rtl.maxOffset - 312, animated: true)])
        #expect(statuses(log.entries).map(\.index) == [1])
    }

    @Test func theSimulatorSpeaksOneStatusPerSettledPageAndNoneDuringADrag() throws {
        // A drag across three pages then a fling; VoiceOver pages twice.
        let script = try ScrollScript(
            json: Data(
                #"""
                {"layout": {"statusTemplate": "{position}/{count} {name}"},
                 "events": [
                   {"at": 0, "drag": {"by": 700, "durationMs": 600, "velocity": 0.5}},
                   {"at": 3000, "accessibilityScroll": "next"},
                   {"at": 3100, "accessibilityScroll": "next"},
                   {"at": 5000, "end": true}]}
                """#.utf8))
        let run = try ScrollSimulation(script: script, stores: stores).run(trace: true)
        let spoken = run.timeline.filter { if case .status = $0.kind { true } else { false } }
        let settled = try #require(run.frames.first { $0.isSettled && $0.time > 600 })
        // The drag's status comes with the frame that finds it settled, none before.
        #expect(spoken.first?.time == settled.time)
        #expect(spoken.map(\.time) == [settled.time, 3000, 3100])
        let texts = statuses(spoken).map(\.text)
        let landed = try #require(settled.dataIndex)
        #expect(texts == ["\(landed + 1)/8 s\(landed)", "\(landed + 2)/8 s\(landed + 1)", "\(landed + 3)/8 s\(landed + 2)"])
        // The second page action starts from where the first one is going.
        let scrolls = run.timeline.compactMap { if case .scroll(let command) = $0.kind { command.dataIndex } else { nil } }
        #expect(scrolls == [landed + 1, landed + 2])
    }

    @Test func aScriptWithoutAStatusTemplateOrPagingHasNoStatusLines() throws {
        let script = ScrollScript(events: [.init(at: 0, .drag(by: 400, durationMs: 200, velocity: 1)), .init(at: 3000, .end)])
        let run = try ScrollSimulation(script: script, stores: stores).run()
        #expect(run.timeline.allSatisfy { $0.kind.name == "camera" || $0.kind.name == "marker" })
    }

    // MARK: Reduced motion

    @Test func reducedMotionMakesTapsAndPagesJumpAndCamerasJumpInsteadOfFlying() throws {
        let framing = MapFraming(mapWidth: 390, mapHeight: 844, zoom: 15)
        for reduce in [false, true] {
            let viewModel = MapSyncViewModel(scheduler: scheduler, framing: framing)
            viewModel.setReduceMotion(reduce)
            #expect(viewModel.reduceMotion == reduce)
            let log = record(viewModel)
            try viewModel.load(stores, layout: try layout(8))
            try viewModel.tapMarker(3)
            viewModel.accessibilityScroll(.next)
            let scrolls = log.entries.compactMap { if case .scroll(let command) = $0.kind { command } else { nil } }
            #expect(scrolls.map(\.animated) == [!reduce, !reduce])
            let transitions = log.entries.compactMap { if case .camera(let camera) = $0.kind { camera.animation?.kind } else { nil } }
            // The first camera of a list has nothing to animate either way.
            #expect(transitions.first == CameraTransition.Kind.none)
            #expect(transitions.dropFirst().allSatisfy { $0 == (reduce ? .jump : .fly) }, "\(transitions)")
        }
    }

    @Test func aReducedMotionScriptJumpsAndStartsAutoplayPaused() throws {
        let script = try ScrollScript(
            json: Data(
                #"""
                {"layout": {"reduceMotion": true, "autoplayMs": 1000},
                 "events": [{"at": 500, "tapMarker": 2}, {"at": 2500, "autoplay": "start"}, {"at": 4000, "end": true}]}
                """#.utf8))
        let run = try ScrollSimulation(script: script, stores: stores).run(trace: true)
        let lines = run.timeline.filter { $0.kind.name == "autoplay" || $0.kind.name == "scroll" }
        #expect(
            lines.map(\.kind) == [
                .autoplay(AutoplayState(isPlaying: false, reasons: [.reducedMotion])),
                // The tap's scroll is a reason too, until its jump settles.
                .autoplay(AutoplayState(isPlaying: false, reasons: [.markerTap, .reducedMotion])),
                .scroll(ScrollCommand(index: 2, dataIndex: 2, targetOffset: 624, animated: false)),
                .autoplay(AutoplayState(isPlaying: false, reasons: [.reducedMotion])),
                .autoplay(AutoplayState(isPlaying: true, reasons: [])),
                .scroll(ScrollCommand(index: 3, dataIndex: 3, targetOffset: 936, animated: false)),
            ])
        #expect(lines.map(\.time) == [0, 500, 500, 500, 2500, 3500])
        // Jumps: no frame between the command and the rest.
        #expect(run.frames.allSatisfy { $0.isSettled })
    }

    // MARK: Input errors

    @Test func anUnknownPlaceholderInAScriptIsAnErrorNamingTheKey() throws {
        #expect {
            try ScrollScript(json: Data(#"{"layout": {"statusTemplate": "Store {nmae}"}, "events": []}"#.utf8))
        } throws: { error in
            (error as? ScrollScriptError)?.description
                == "scroll script: layout.statusTemplate: unknown placeholder {nmae}; known placeholders: {position}, {count}, {name}, {id}, {hours}, {distance}"
        }
    }
}
