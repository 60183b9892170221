import CarouselEngine
import Locks
import MapSync
import MapSyncSimulation
import Observables
import Testing

/// Simulations stop at their limits with an error naming the limit, instead
/// of running for minutes or filling memory; the timeline can be streamed.
/// The scripts are the exact ones an outside reliability pass reported.
@Suite("Simulation limits and streaming")
struct SimulationLimitTests {
    let stores = sampleStores(44)

    private func run(
        _ events: [ScrollScript.Event], layout: LayoutSpec = LayoutSpec(), limits: SimulationLimits = .standard
    ) throws -> ScrollSimulation.Outcome {
        try ScrollSimulation(script: ScrollScript(layout: layout, events: events), stores: stores).run(limits: limits)
    }

    /// The limit a run stopped at, or nil if it did not throw one.
    private func limitReached(_ body: () throws -> ScrollSimulation.Outcome) -> SimulationLimitError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? SimulationLimitError
        }
    }

    @Test("a drag over 10¹² ms stops at once at the virtual-time limit (it grew to 6.3 GB in 20 s)")
    func aTrillionMillisecondDragHitsTheTimeLimit() throws {
        let error = try #require(limitReached { try run([.init(at: 0, .drag(by: 100, durationMs: 1e12, velocity: nil))]) })
        #expect(error.limit == .virtualTime)
        #expect(error.reason.contains("3600000 ms of virtual time"))
    }

    @Test("a 10¹⁵-ms animation stops at once at the virtual-time limit")
    func aHugeAnimationHitsTheTimeLimit() throws {
        let error = try #require(limitReached { try run([.init(at: 0, .scrollTo(5, animated: true))], layout: LayoutSpec(animationMs: 1e15)) })
        #expect(error.limit == .virtualTime)
        // The same animation of --animation-ms=1e12.
        let shorter = try #require(limitReached { try run([.init(at: 0, .scrollTo(5, animated: true))], layout: LayoutSpec(animationMs: 1e12)) })
        #expect(shorter.limit == .virtualTime)
    }

    @Test("a fling at deceleration 0.9999999999999999 stops at once at the virtual-time limit")
    func aNearlyEndlessFlingHitsTheTimeLimit() throws {
        let layout = LayoutSpec(deceleration: try Deceleration(rate: 0.9999999999999999))
        let error = try #require(
            limitReached {
                try run([.init(at: 0, .drag(by: 100, durationMs: 100, velocity: 3))], layout: layout)
            })
        #expect(error.limit == .virtualTime)
        #expect(error.reason.contains("decelerate"))
    }

    @Test("an event past the limit is refused; raising the limit runs it")
    func raisingTheTimeLimitRunsTheScript() throws {
        let events: [ScrollScript.Event] = [.init(at: 5_000_000, .scrollTo(3, animated: false))]
        #expect(limitReached { try run(events) }?.limit == .virtualTime)
        let raised = try run(events, limits: SimulationLimits(maxVirtualMs: 10_000_000, maxFrames: 1_000))
        #expect(raised.focusedIndex == 3)
    }

    @Test("the frame limit stops a run that draws more frames")
    func theFrameLimitStopsTheRun() throws {
        let drag: [ScrollScript.Event] = [.init(at: 0, .drag(by: 900, durationMs: 1000, velocity: nil))]
        let error = try #require(limitReached { try run(drag, limits: SimulationLimits(maxVirtualMs: 3_600_000, maxFrames: 10)) })
        #expect(error.limit == .frames)
        #expect(error.reason.contains("more than 10 frames"))
        // A whole drag at 60 fps fits in a thousand.
        _ = try run(drag, limits: SimulationLimits(maxVirtualMs: 3_600_000, maxFrames: 1_000))
    }

    @Test("unusable limits are errors")
    func badLimitsAreErrors() {
        #expect(throws: SimulationLimitError.self) { try SimulationLimits(maxVirtualMs: .nan, maxFrames: 1).validate() }
        #expect(throws: SimulationLimitError.self) { try SimulationLimits(maxVirtualMs: 1, maxFrames: -1).validate() }
    }

    @Test("a streamed run hands over exactly the timeline a collecting run returns, in order")
    func streamingGivesTheSameTimeline() throws {
        let script = ScrollScript(events: [
            .init(at: 0, .drag(by: 400, durationMs: 120, velocity: 2)),
            .init(at: 900, .offset(1500)),
            .init(at: 900, .scrollTo(1, animated: true)),
            .init(at: 1400, .tapMarker(7)),
            .init(at: 3000, .end),
        ])
        let simulator = try ScrollSimulation(script: script, stores: stores)
        let collected = try simulator.run(trace: true)
        let streamed = StateLock<[TimelineEntry]>([])
        let end = try simulator.run(trace: true) { entry in streamed.withLock { $0.append(entry) } }
        #expect(streamed.withLock { $0 } == collected.timeline)
        #expect(!collected.timeline.isEmpty)
        #expect(end.timeline.isEmpty)
        #expect(end.offset == collected.offset)
    }

    @Test("an error from the consumer stops the run and is thrown")
    func aConsumerErrorStopsTheRun() throws {
        struct Full: Error {}
        let script = ScrollScript(events: [.init(at: 0, .drag(by: 900, durationMs: 2000, velocity: nil))])
        let taken = StateLock(0)
        #expect(throws: Full.self) {
            try ScrollSimulation(script: script, stores: stores).run(trace: true) { _ in
                try taken.withLock { count in
                    count += 1
                    if count == 3 { throw Full() }
                }
            }
        }
        // Stopped right after the failing entry, not after the drag's ~120 frames.
        #expect(taken.withLock { $0 } <= 5)
    }
}
