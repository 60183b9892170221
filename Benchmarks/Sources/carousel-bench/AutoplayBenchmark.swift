import CarouselEngine
import MapSync
import MapSyncSimulation
import Observables

/// The autoplay benchmark (issue 44): an hour of autoplay in the simulator,
/// in process — 44 stores in a loop turning every 5 s, 720 turns, each an
/// animated scroll with its frames, the debounce and the camera — timed
/// from the script to the last entry. The target: under 100 ms, so that a
/// test or a `carousel simulate --autoplay` of an hour is instant.
struct AutoplayBenchmark {
    var runs: Int

    func run(into report: inout Report) throws {
        let stores = InMemoryStoreDirectory(
            (0..<44).map { i in
                StorePin(id: "s\(i)", latitude: 37.5 + Double(i) / 100, longitude: 127 + Double(i) / 100)
            })
        // `end` just past the hour: the turn at 3,600,000 ms is the 720th.
        let script = ScrollScript(
            layout: LayoutSpec(loop: true), autoplayMs: 5000, events: [ScrollScript.Event(at: 3_600_001, .end)])
        let simulation = try ScrollSimulation(script: script, stores: stores)
        // The last turn's 300-ms animation ends past the hour.
        let limits = SimulationLimits(maxVirtualMs: 3_601_000, maxFrames: 2_000_000)
        var seconds: [Double] = []
        for run in 0...runs {
            let counter = TurnCounter()
            let (_, elapsed) = try Stopwatch.time {
                try simulation.run(trace: true, limits: limits, onEntry: counter.count)
            }
            guard counter.turns == 720 else {
                throw BenchError("autoplay: an hour at 5 s took \(counter.turns) turns, not 720")
            }
            // The first run warms up, untimed.
            if run > 0 { seconds.append(elapsed) }
        }
        let samples = Samples(seconds)
        report.rows.append(ReportRow(
            "an hour of autoplay in the simulator (720 turns at 5 s): median (p99)",
            ours: "\(Format.seconds(samples.median)) (p99 \(Format.seconds(samples.p99)))",
            target: .atMost(0.100, "100 ms"), measured: samples.median
        ))
        report.notes.append("""
            autoplay: \(runs) runs in process of `ScrollSimulation.run(trace: true)` to an `end` at 3600001 ms on 44 stores \
            in a loop with autoplayMs 5000 (720 animated turns, their frames, the debounced cameras), after one \
            untimed run
            """)
    }
}

/// Counts the commanded scrolls of a run (the simulation runs on one
/// thread; `@unchecked` only lets the closure be `@Sendable`).
private final class TurnCounter: @unchecked Sendable {
    private(set) var turns = 0

    @Sendable func count(_ entry: TimelineEntry) {
        if case .scroll = entry.kind { turns += 1 }
    }
}
