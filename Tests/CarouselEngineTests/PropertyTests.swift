import CarouselEngine
import TestSupport
import Testing

/// Seeded random layouts, offsets and velocities; every failure names its
/// seed and trial so it reproduces.
@Suite("Engine properties")
struct PropertyTests {
    static let trials = 2_000

    /// A random valid layout of 1…500 items, any alignment, rule and rate.
    static func randomLayout(_ random: inout SplitMix64, snap: SnapRule? = nil, loop: Bool = false) throws -> CarouselLayout {
        let viewport = Double.random(in: 100...1000, using: &random)
        let length: ItemLength =
            Bool.random(using: &random)
            ? .fraction(Double.random(in: 0.05...1, using: &random))
            : .points(Double.random(in: 1...(viewport * 1.2), using: &random))
        let decelerations: [Deceleration] = [.normal, .fast, try Deceleration(rate: Double.random(in: 0.5...0.999, using: &random))]
        return try CarouselLayout(
            viewport: viewport, itemLength: length,
            spacing: Double.random(in: 0...50, using: &random),
            sectionInset: Double.random(in: 0...30, using: &random),
            alignment: Bool.random(using: &random) ? .leading : .center,
            dataCount: Int.random(in: 1...500, using: &random),
            loop: loop, loopPadding: Int.random(in: 1...3, using: &random),
            snap: snap ?? SnapRule.allCases.randomElement(using: &random)!,
            deceleration: decelerations.randomElement(using: &random)!
        )
    }

    static func randomOffset(_ layout: CarouselLayout, _ random: inout SplitMix64) -> Double {
        Double.random(in: layout.offsetRange, using: &random)
    }

    static func randomVelocity(_ random: inout SplitMix64) -> Double {
        Bool.random(using: &random) ? 0 : Double.random(in: -8...8, using: &random)
    }

    @Test func everyReleaseRestsOnAnItemInRange() throws {
        let seed: UInt64 = 0xC0FFEE
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            let layout = try Self.randomLayout(&random)
            let x = Self.randomOffset(layout, &random)
            let start = Self.randomOffset(layout, &random)
            let release = try layout.release(at: x, velocity: Self.randomVelocity(&random), dragStart: start)
            let context = "seed \(seed) trial \(trial): \(layout.snap) \(release)"
            let index = try #require(release.index, "\(context)")
            #expect((0..<layout.itemCount).contains(index), "\(context)")
            #expect(layout.offsetRange.contains(release.targetOffset), "\(context)")
            switch layout.snap {
            case .free, .page:
                #expect(index == layout.focusedItem(at: release.targetOffset), "\(context)")
            case .nearest, .directional, .velocity, .single:
                #expect(release.targetOffset == layout.rest(index), "\(context)")
            }
        }
    }

    @Test func singleNeverMovesMoreThanOneItemFromTheStart() throws {
        let seed: UInt64 = 0x51_461E
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            let layout = try Self.randomLayout(&random, snap: .single)
            let startItem = Int.random(in: 0..<layout.itemCount, using: &random)
            // The finger may drag several items before releasing.
            let x = layout.clampedOffset(layout.rest(startItem) + Double.random(in: -3...3, using: &random) * layout.page)
            let release = try layout.release(
                at: x, velocity: Double.random(in: -50...50, using: &random), dragStart: layout.rest(startItem))
            #expect(abs(release.index! - startItem) <= 1, "seed \(seed) trial \(trial): from \(startItem) to \(release)")
        }
    }

    @Test func directionalNeverLandsAgainstTheDirectionOfTravel() throws {
        let seed: UInt64 = 0xD1_4EC7
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            let layout = try Self.randomLayout(&random, snap: .directional)
            let x = Self.randomOffset(layout, &random)
            let release = try layout.release(at: x, velocity: Self.randomVelocity(&random), dragStart: x)
            let context = "seed \(seed) trial \(trial): x \(x) \(release)"
            if release.projected > x { #expect(release.targetOffset >= x, "\(context)") }
            if release.projected < x { #expect(release.targetOffset <= x, "\(context)") }
        }
    }

    @Test func decelerationFramesAreMonotonicAndEndExactlyOnTheTarget() throws {
        let seed: UInt64 = 0xDECE1
        var random = SplitMix64(seed: seed)
        for trial in 0..<500 {
            let layout = try Self.randomLayout(&random)
            var scroller = try CarouselScroller(layout: layout, initialIndex: Int.random(in: 0..<layout.dataCount, using: &random))
            try scroller.setOffset(Self.randomOffset(layout, &random), at: 0)
            let start = scroller.offset
            let release = try scroller.release(velocity: Self.randomVelocity(&random), at: 0)
            guard release.motion == .decelerate else { continue }
            let frames = try scroller.framesUntilSettled()
            let context = "seed \(seed) trial \(trial): \(release)"
            let offsets = [start] + frames.map(\.offset)
            let sign: Double = release.targetOffset >= start ? 1 : -1
            #expect(zip(offsets, offsets.dropFirst()).allSatisfy { ($1 - $0) * sign >= 0 }, "\(context)")
            #expect(scroller.offset == release.targetOffset, "\(context)")
            #expect(scroller.isSettled && scroller.nextFrameTime == nil, "\(context)")
            if let last = frames.last { #expect(last.isSettled && last.offset == release.targetOffset, "\(context)") }
        }
    }

    @Test func loopJumpsNeverChangeTheDataIndex() throws {
        let seed: UInt64 = 0x100B
        var random = SplitMix64(seed: seed)
        var jumps = 0
        for trial in 0..<300 {
            let layout = try Self.randomLayout(&random, loop: true)
            var scroller = try CarouselScroller(layout: layout, initialIndex: Int.random(in: 0..<layout.dataCount, using: &random))
            var time = 0.0
            var previous: Frame?
            // A few drags and flings in random directions.
            for _ in 0..<4 {
                try scroller.beginDrag(at: time)
                for step in 1...10 {
                    time += layout.frameMs
                    try scroller.drag(translation: Double(step) * Double.random(in: -0.6...0.6, using: &random) * layout.page, at: time)
                    if let due = scroller.nextFrameTime { previous = try check(scroller.frame(at: due), after: previous) }
                }
                try scroller.release(velocity: Double.random(in: -6...6, using: &random), at: time)
                for frame in try scroller.framesUntilSettled() { previous = try check(frame, after: previous) }
                time = scroller.time
            }
            func check(_ frame: Frame, after previous: Frame?) throws -> Frame {
                let context = "seed \(seed) trial \(trial): \(frame)"
                if let jump = frame.jump {
                    jumps += 1
                    #expect(layout.focusedDataIndex(at: jump.from) == layout.focusedDataIndex(at: jump.to), "\(context)")
                    // A jump is a whole number of periods n · page: twin to twin.
                    let periods = (jump.to - jump.from) / (Double(layout.dataCount) * layout.page)
                    #expect(periods != 0 && isClose(periods, periods.rounded(), within: 1e-9), "\(context)")
                }
                // The offset stays inside the band the jumps maintain.
                let band = layout.rest(layout.loop!.padding - 1)...layout.rest(layout.dataCount + layout.loop!.padding)
                #expect(band.contains(frame.offset), "\(context)")
                return frame
            }
        }
        #expect(jumps > 50, "the trials should exercise the jumps (seed \(seed))")
    }
}
