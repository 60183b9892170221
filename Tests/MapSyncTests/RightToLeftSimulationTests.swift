import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import TestSupport
import Testing

/// Issue 44's target for right-to-left: for random layouts and scroll
/// scripts, the right-to-left run of the mirrored script (drags and
/// velocities negated, raw offsets `maxOffset − offset`) has the same
/// timeline of cameras and markers as the left-to-right run, and its frames
/// the same focused indices with offsets mirrored.
@Suite struct RightToLeftSimulationTests {
    let stores = sampleStores(8)

    /// A random layout: any preset, viewport, item fraction and spacing,
    /// with or without a loop.
    private func randomSpec(_ random: inout SplitMix64) -> LayoutSpec {
        LayoutSpec(
            viewport: .random(in: 200...900, using: &random), itemFraction: .random(in: 0.2...1, using: &random),
            spacing: .random(in: 0...40, using: &random),
            behavior: ScrollBehavior.allCases.randomElement(using: &random),
            loop: .random(using: &random))
    }

    /// A random script of 1…8 events, in left-to-right terms.
    private func randomEvents(_ random: inout SplitMix64, maxOffset: Double) -> [ScrollScript.Event] {
        var time = 0.0
        var events: [ScrollScript.Event] = []
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            time += Double.random(in: 0...900, using: &random)
            let action: ScrollScript.Action =
                switch Int.random(in: 0..<5, using: &random) {
                case 0, 1:
                    .drag(
                        by: .random(in: -700...700, using: &random), durationMs: .random(in: 0...300, using: &random),
                        velocity: Bool.random(using: &random) ? nil : .random(in: -4...4, using: &random))
                case 2:
                    // A report whose mirror mirrors back to it exactly, so both runs see one number.
                    .offset(maxOffset - (maxOffset - .random(in: -0.1...1.1, using: &random) * maxOffset))
                case 3: .scrollTo(.random(in: 0..<8, using: &random), animated: .random(using: &random))
                default: .tapMarker(.random(in: 0..<8, using: &random))
                }
            events.append(.init(at: time, action))
        }
        // A 0-ms drag needs a velocity of its own.
        return events.map { event in
            if case .drag(let by, 0, nil) = event.action { return .init(at: event.at, .drag(by: by, durationMs: 0, velocity: 1)) }
            return event
        }
    }

    /// The script seen in a mirror: the same gestures on a right-to-left carousel.
    private func mirrored(_ events: [ScrollScript.Event], maxOffset: Double) -> [ScrollScript.Event] {
        events.map { event in
            switch event.action {
            case let .drag(by, durationMs, velocity):
                .init(at: event.at, .drag(by: -by, durationMs: durationMs, velocity: velocity.map { -$0 }))
            case let .offset(offset): .init(at: event.at, .offset(maxOffset - offset))
            default: event
            }
        }
    }

    @Test func aScriptsLayoutTakesLayoutDirectionAndNamesTheAllowedValues() throws {
        let script = try ScrollScript(json: Data(#"{"layout": {"layoutDirection": "rightToLeft"}, "events": []}"#.utf8))
        #expect(script.layout.layoutDirection == .rightToLeft)
        #expect {
            try ScrollScript(json: Data(#"{"layout": {"layoutDirection": "rtl"}, "events": []}"#.utf8))
        } throws: { error in
            "\(error)".contains("layoutDirection must be leftToRight or rightToLeft (got 'rtl')")
        }
    }

    @Test func aMirroredScriptGivesTheSameCamerasMarkersAndFocus() throws {
        var random = SplitMix64(seed: 0x44_52_54_4C)
        for trial in 0..<1000 {
            var spec = randomSpec(&random)
            let ltrLayout = try spec.layout(dataCount: stores.count)
            let m = ltrLayout.maxOffset
            let events = randomEvents(&random, maxOffset: m)
            let initialIndex = Int.random(in: 0..<8, using: &random)
            let ltr = try ScrollSimulation(
                script: ScrollScript(layout: spec, initialIndex: initialIndex, events: events), stores: stores
            ).run(trace: true)
            spec.layoutDirection = .rightToLeft
            let rtl = try ScrollSimulation(
                script: ScrollScript(layout: spec, initialIndex: initialIndex, events: mirrored(events, maxOffset: m)),
                stores: stores
            ).run(trace: true)
            let context = "trial \(trial): \(spec) \(events)"
            #expect(rtl.layout.maxOffset == m, "\(context)")
            // Cameras and markers: identical, time for time.
            #expect(rtl.timeline.filter { !$0.kind.isTrace } == ltr.timeline.filter { !$0.kind.isTrace }, "\(context)")
            #expect(rtl.focusedIndex == ltr.focusedIndex, "\(context)")
            #expect(abs(rtl.offset - (m - ltr.offset)) <= 1e-9 * max(1, m), "\(context)")
            // Frames: the same focus and direction, offsets mirrored.
            let frames = { (run: ScrollSimulation.Outcome) in
                run.timeline.compactMap { entry -> Frame? in if case .frame(let f) = entry.kind { f } else { nil } }
            }
            let right = frames(rtl), left = frames(ltr)
            try #require(right.count == left.count, "\(context)")
            for (a, b) in zip(right, left) {
                #expect(a.time == b.time && a.dataIndex == b.dataIndex && a.direction == b.direction, "\(context)")
                #expect(abs(a.offset - (m - b.offset)) <= 1e-9 * max(1, m), "\(context): \(a) \(b)")
            }
        }
    }
}
