import CarouselEngine
import Foundation
import MapSync
import MapSyncSimulation
import Observables
import ObservablesTesting
import TestSupport
import Testing

/// Scripts replayed end to end — scroller frames → view model → timeline —
/// with exact expected timelines. Settle times come from the engine's own
/// motion curves, never from a run.
@Suite struct ScrollSimulationTests {
    let stores = sampleStores(8)

    private func simulate(
        _ events: [ScrollScript.Event], layout spec: LayoutSpec = LayoutSpec(), initialIndex: Int = 0,
        stores: InMemoryStoreDirectory? = nil, trace: Bool = false, until time: Milliseconds? = nil
    ) throws -> ScrollSimulation.Outcome {
        let script = ScrollScript(layout: spec, initialIndex: initialIndex, events: events)
        return try ScrollSimulation(script: script, stores: stores ?? self.stores).run(trace: trace, until: time)
    }

    /// The first frame at or after `motion`'s end: frames fall every
    /// `frameMs` from the motion's start, and the one that finds it finished
    /// is the carousel's last.
    private func settleFrame(of motion: Motion, frameMs: Double = 1000.0 / 60) -> Milliseconds {
        var tick = 1.0
        while motion.startTime + tick * frameMs < motion.endTime { tick += 1 }
        return motion.startTime + tick * frameMs
    }

    @Test func aHardFlingAcrossThreeCardsMovesTheCameraOnce250msAfterTheCarouselSettles() throws {
        // Nearest + normal (continuousGroupLeadingBoundary), page 312. The
        // finger drags 200 pt in 100 ms and flings at 1.5 pt/ms:
        // p = 200 + 1.5 · 0.998 / 0.002 = 948.5 → card round(948.5 / 312) = 3, offset 936.
        let spec = LayoutSpec(behavior: .continuousGroupLeadingBoundary)
        let run = try simulate([.init(at: 0, .drag(by: 200, durationMs: 100, velocity: 1.5))], layout: spec, trace: true)
        let settle = settleFrame(of: .decelerate(from: 200, to: 936, rate: .normal, at: 100))

        let map = run.marbles.filter { !$0.event.element!.isTrace }
        expectEvents(map, selection(0, 0, previous: nil, in: stores) + selection(settle + 250, 3, previous: 0, in: stores))
        // It did fly across cards 1 and 2, and the last frame is the settled one.
        let focus = run.frames.compactMap(\.dataIndex)
        #expect([0, 1, 2, 3].allSatisfy(focus.contains))
        let last = try #require(run.frames.last)
        #expect(last.time == settle && last.offset == 936 && last.isSettled)
    }

    @Test func aFlingThatReversesAnimatesToItsTargetAsTheReverseSnapArticleWants() throws {
        // The Instagram-paging article: 540-pt vertical pages. From card 3 the finger drags
        // +300 pt but lifts moving back (−0.1 pt/ms): p = 1920 − 9.9 = 1910.1
        // → card 4 lies against the velocity, so stop and animate for 300 ms.
        let spec = LayoutSpec(
            axis: .vertical, viewport: 540, itemLength: 540, spacing: 0,
            behavior: .continuousGroupLeadingBoundary, deceleration: .fast)
        let run = try simulate(
            [.init(at: 0, .drag(by: 300, durationMs: 200, velocity: -0.1))], layout: spec, initialIndex: 3, trace: true)
        let settle = settleFrame(of: .animate(from: 1920, to: 2160, duration: 300, at: 200))

        let releases = run.timeline.compactMap { entry -> Release? in
            if case .release(let release, _) = entry.kind { release } else { nil }
        }
        #expect(releases.map(\.motion) == [.animate])
        #expect(releases.map(\.targetOffset) == [2160])
        let map = run.marbles.filter { !$0.event.element!.isTrace }
        expectEvents(map, selection(0, 3, previous: nil, in: stores) + selection(settle + 250, 4, previous: 3, in: stores))
    }

    @Test func aMarkerTapEmitsAtTheTapAndNothingWhenTheCarouselSettlesThere() throws {
        let run = try simulate([.init(at: 1000, .tapMarker(5))], trace: true)
        let settle = settleFrame(of: .animate(from: 0, to: 1560, duration: 300, at: 1000))

        let map = run.marbles.filter { !$0.event.element!.isTrace }
        expectEvents(map, selection(0, 0, previous: nil, in: stores) + selection(1000, 5, previous: 0, in: stores))
        // At the tap: camera, marker, then the commanded scroll, in that order.
        let atTap = run.timeline.filter { $0.time == 1000 }.map(\.kind.name)
        #expect(atTap == ["camera", "marker", "scroll"])
        let last = try #require(run.frames.last)
        #expect(last.time == settle && last.offset == 1560 && last.dataIndex == 5)
    }

    @Test func aLoopJumpEmitsNothing() throws {
        // 5 stores looped with 2 copies each end (items 0…8, page 312). Below
        // rest(1) = 312 the offset jumps forward n · page = 1560 to the twin
        // of the same card: data 4 before and after.
        let stores = sampleStores(5)
        let run = try simulate(
            [.init(at: 100, .offset(330)), .init(at: 120, .offset(300))],
            layout: LayoutSpec(loop: true), stores: stores, trace: true)

        let jumps = run.timeline.filter { $0.kind == .jump(Frame.Jump(from: 300, to: 1860)) }
        #expect(jumps.map(\.time) == [120])
        #expect(run.frames.map(\.dataIndex) == [4, 4])
        let map = run.marbles.filter { !$0.event.element!.isTrace }
        expectEvents(map, selection(0, 0, previous: nil, in: stores) + selection(370, 4, previous: 0, in: stores))
    }

    @Test func anEmptyListEmitsNothingAndDoesNotCrash() throws {
        let run = try simulate(
            [.init(at: 0, .drag(by: 200, durationMs: 100, velocity: nil)), .init(at: 500, .offset(900))],
            stores: InMemoryStoreDirectory([]))
        #expect(run.timeline.isEmpty)
        #expect(run.focusedIndex == nil)
    }

    @Test func theInitialStoreIsEmittedAtTimeZero() throws {
        let run = try simulate([], initialIndex: 6)
        expectEvents(run.marbles, selection(0, 6, previous: nil, in: stores))
    }

    @Test func backAndForthWithinTheWindowEmitsNothing() throws {
        let run = try simulate([.init(at: 100, .offset(312)), .init(at: 200, .offset(0))])
        expectEvents(run.marbles, selection(0, 0, previous: nil, in: stores))
    }

    @Test func endFlushesThePendingValueAtItsTime() throws {
        let run = try simulate([.init(at: 100, .offset(312)), .init(at: 200, .end)])
        expectEvents(run.marbles, selection(0, 0, previous: nil, in: stores) + selection(200, 1, previous: 0, in: stores))
        #expect(run.endTime == 200)
    }

    @Test func eventsAtOneInstantHappenInListOrderAndOneFrameShowsTheirResult() throws {
        let run = try simulate([.init(at: 100, .offset(312)), .init(at: 100, .offset(624))], trace: true)
        #expect(run.frames.map(\.offset) == [624])
        let map = run.marbles.filter { !$0.event.element!.isTrace }
        expectEvents(map, selection(0, 0, previous: nil, in: stores) + selection(350, 2, previous: 0, in: stores))
    }

    @Test func aDragWithoutVelocityReleasesAtItsOwnSpeed() throws {
        let run = try simulate([.init(at: 0, .drag(by: 180, durationMs: 150, velocity: nil))], trace: true)
        let velocities = run.timeline.compactMap { entry -> Double? in
            if case .release(_, let velocity) = entry.kind { velocity } else { nil }
        }
        #expect(velocities == [1.2])
        // The finger's steps fall on the frame grid: 150 / (1000/60) → 9 moves, the last at the lift.
        let dragFrames = run.frames.filter { $0.time <= 150 }
        #expect(dragFrames.count == 9)
        #expect(dragFrames.last?.offset == 180)
    }

    @Test func runningUntilATimeReportsTheCarouselThere() throws {
        // Animated scroll 0 → 1560 over 300 ms from t = 0; at 200 ms the
        // ease-in-out (0.42, 0, 0.58, 1) is ~77 % there (~1198 pt): card round(3.84) = 4.
        let run = try simulate([.init(at: 0, .scrollTo(5, animated: true))], until: 200)
        #expect(run.endTime == 200)
        #expect(run.offset == Motion.animate(from: 0, to: 1560, duration: 300, at: 0).offset(at: 200))
        #expect(abs(run.offset - 1198.4) < 0.1)
        #expect(run.focusedIndex == 4)
        expectEvents(run.marbles, selection(0, 0, previous: nil, in: stores))
    }

    @Test func aFailingLookupFailsTheRun() throws {
        let script = ScrollScript(events: [.init(at: 0, .offset(312))])
        let simulator = try ScrollSimulation(script: script, stores: FailingStoreDirectory(count: 3))
        #expect(throws: FailingStoreDirectory.Failure()) { try simulator.run() }
    }

    @Test func aSeededRandomScriptEndsSettledWithTheCameraOnTheRestingCard() throws {
        // Whatever the gestures, once nothing is pending the map shows the
        // card the carousel rests on.
        for seed: UInt64 in 1...20 {
            var random = SplitMix64(seed: seed)
            var time = 0.0
            var events: [ScrollScript.Event] = []
            for _ in 0..<6 {
                time += Double.random(in: 0...900, using: &random)
                let action: ScrollScript.Action =
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0:
                        .drag(
                            by: .random(in: -700...700, using: &random), durationMs: .random(in: 30...300, using: &random),
                            velocity: .random(in: -4...4, using: &random))
                    case 1: .offset(.random(in: -100...2500, using: &random))
                    case 2: .scrollTo(.random(in: 0..<8, using: &random), animated: .random(using: &random))
                    default: .tapMarker(.random(in: 0..<8, using: &random))
                    }
                events.append(.init(at: time, action))
            }
            for loop in [false, true] {
                let run = try simulate(events, layout: LayoutSpec(loop: loop))
                let cameras = run.timeline.compactMap { entry -> CameraPosition? in
                    if case .camera(let camera) = entry.kind { camera } else { nil }
                }
                #expect(cameras.last?.index == run.focusedIndex, "seed \(seed), loop \(loop): \(events)")
                #expect(zip(cameras, cameras.dropFirst()).allSatisfy { $0.index != $1.index }, "seed \(seed): distinct")
            }
        }
    }
}
