import CarouselEngine
import SyntheticStores

/// One raw offset report, as `scrollViewDidScroll` gives it: the content
/// offset at a virtual time (ms).
struct OffsetEvent: Sendable {
    var time: Double
    var offset: Double
}

/// A deterministic, realistic stream of raw offset events for the pipeline
/// benchmark: a user dragging and flinging through a long store list.
///
/// Every frame comes from the engine's `CarouselScroller`, sampled at 60 fps
/// (`frameMs` = 1000/60): the finger's frames during a drag, then the
/// deceleration or snap animation the release starts (the layout's snap rule and UIKit's deceleration), until the
/// carousel settles. Between gestures the user pauses longer than the
/// debounce, so each gesture can give one focus emission — or none, when it
/// snaps back to the store it started on and `distinctUntilChanged` drops it.
enum GestureStream {
    /// A phone-sized centred carousel (viewport 390 pt, cards 300 pt apart by
    /// 12, seed 002's neighbours peeking) with nearest snapping and normal
    /// deceleration, so a fling travels several cards (continuous, UIKit
    /// `continuousGroupLeadingBoundary` rules, centred).
    static func layout(storeCount: Int) throws -> CarouselLayout {
        try CarouselLayout(
            viewport: 390, itemLength: .points(300), spacing: 12, alignment: .center,
            dataCount: storeCount, snap: .nearest, deceleration: .normal
        )
    }

    /// The first `count` frames' offsets of a seeded sequence of gestures.
    static func events(count: Int, layout: CarouselLayout, seed: UInt64) throws -> [OffsetEvent] {
        precondition(layout.dataCount > 0, "the gesture stream needs a non-empty carousel")
        var random = SplitMix64(seed: seed)
        // Start mid-list: a random walk of ±a few cards per gesture then
        // rarely pins against an end.
        var scroller = try CarouselScroller(layout: layout, initialIndex: Int.random(in: 0..<layout.dataCount, using: &random))
        var events: [OffsetEvent] = []
        events.reserveCapacity(count)
        var time = 0.0
        while events.count < count {
            // A pause longer than the 250 ms debounce before each gesture.
            time += Double.random(in: 300...3000, using: &random)
            let gesture = Gesture.random(using: &random)
            try scroller.beginDrag(at: time)
            // The finger's frames: the content follows it linearly.
            let frames = max(1, Int((gesture.durationMs / layout.frameMs).rounded()))
            for frame in 1...frames {
                time += layout.frameMs
                try scroller.drag(translation: gesture.distance * Double(frame) / Double(frames), at: time)
                events.append(OffsetEvent(time: time, offset: try scroller.frame(at: time).offset))
            }
            // The release's motion, frame by frame until it settles.
            try scroller.release(velocity: gesture.releaseVelocity, at: time)
            while let due = scroller.nextFrameTime {
                time = due
                events.append(OffsetEvent(time: time, offset: try scroller.frame(at: time).offset))
            }
        }
        return Array(events.prefix(count))
    }

    /// One touch: how far and how fast the finger moves, and how fast it lifts.
    private struct Gesture {
        /// Signed points, positive toward later cards.
        var distance: Double
        var durationMs: Double
        /// pt/ms at release, signed like `distance`.
        var releaseVelocity: Double

        /// Six in ten are slow drags that lift gently (they snap to a near
        /// card, often back to the start); four in ten are flings, short and
        /// fast (1.5–5 pt/ms projects 750–2,500 pt at 0.998: 2–8 cards).
        static func random(using random: inout SplitMix64) -> Gesture {
            let sign: Double = Bool.random(using: &random) ? 1 : -1
            if Double.random(in: 0..<1, using: &random) < 0.6 {
                let distance = Double.random(in: 20...400, using: &random)
                let durationMs = Double.random(in: 150...800, using: &random)
                let lift = Double.random(in: 0.1...1, using: &random)
                return Gesture(distance: sign * distance, durationMs: durationMs, releaseVelocity: sign * lift * distance / durationMs)
            }
            return Gesture(
                distance: sign * Double.random(in: 80...250, using: &random),
                durationMs: Double.random(in: 60...150, using: &random),
                releaseVelocity: sign * Double.random(in: 1.5...5, using: &random)
            )
        }
    }
}
