import Foundation
import MapSync
import MapSyncSimulation
import TestSupport
import Testing

/// The scripts shipped in `SampleData/scripts/` read and run against a list
/// the size of the sample stores, and do what their names say.
@Suite struct SampleScriptTests {
    /// `SampleData/seoul-coffee.csv` holds 44 stores.
    let stores = sampleStores(44)

    private func run(_ name: String) throws -> ScrollSimulation.Outcome {
        let url = Paths.sampleData.appendingPathComponent("scripts/\(name).json")
        let script = try ScrollScript(json: Data(contentsOf: url))
        return try ScrollSimulation(script: script, stores: stores).run(trace: true)
    }

    private func cameras(_ run: ScrollSimulation.Outcome) -> [Int] {
        run.timeline.compactMap { entry in
            if case .camera(let camera) = entry.kind { camera.index } else { nil }
        }
    }

    @Test func everySampleScriptRunsAgainstTheSampleStores() throws {
        let folder = Paths.sampleData.appendingPathComponent("scripts")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(names == ["autoplay", "demo", "gentle-swipe", "hard-fling", "keep-swipes", "loop", "marker-tap", "reverse-fling"])
        for name in names {
            #expect(try !run(name).timeline.isEmpty, "\(name)")
        }
    }

    @Test func aGentleSwipeMovesOneCard() throws {
        #expect(try cameras(run("gentle-swipe")) == [0, 1])
    }

    @Test func aHardFlingCrossesSeveralCardsAndMovesTheCameraOnce() throws {
        let indices = try cameras(run("hard-fling"))
        #expect(indices.count == 2 && indices[1] >= 3, "\(indices)")
    }

    @Test func theReverseFlingAnimatesForward() throws {
        let run = try run("reverse-fling")
        #expect(cameras(run) == [3, 4])
        #expect(run.timeline.contains { if case .release(let release, _) = $0.kind { release.motion == .animate } else { false } })
    }

    @Test func aSecondTapOnTheSelectedMarkerEmitsNothing() throws {
        #expect(try cameras(run("marker-tap")) == [0, 1, 9])
    }

    @Test func theLoopWrapsBackwardPastTheFirstCardWithASilentJump() throws {
        let run = try run("loop")
        #expect(cameras(run) == [0, 43, 42, 43])
        #expect(run.timeline.contains { $0.kind.name == "jump" })
    }

    @Test func keepSwipesSelectMarkersInViewWithoutMovingTheCamera() throws {
        let run = try run("keep-swipes")
        let markers = run.timeline.filter { $0.kind.name == "marker" }.count
        #expect(markers == 7, "the first card, five swipes, the tap")
        #expect(cameras(run).count < markers, "\(cameras(run))")
        #expect(cameras(run).last == 30, "the far tapped store is flown to")
    }
}
