import CarouselEngine
import MapSync
import MapSyncSimulation
import Observables
import TestSupport
import Testing

/// Autoplay against a reference state machine written apart from the view
/// model, from the W3C APG carousel example (rotation pauses on hover and
/// on focus, a rotation control stops it and only that control starts it
/// again, it starts paused under `prefers-reduced-motion`) and WCAG 2.2
/// success criterion 2.2.2 (Pause, Stop, Hide). Both are fed the same timed
/// random events and must give the same page turns and the same play/pause
/// states, at the same times.
@Suite struct AutoplayReferenceModelTests {
    /// The reference: a set of held pause reasons, the user-stopped flag (a
    /// reduced-motion start counts as one, as in the APG example), an
    /// end-stopped flag, and the time the running interval started.
    /// Deliberately plain: no scheduler, no streams; time moves by
    /// `advance(to:)`.
    struct Reference {
        let count: Int
        let intervalMs: Double
        let loop: Bool
        let rewind: Bool
        var page = 0
        var held: Set<String> = []
        var userStopped: Bool
        var reducedMotionStop: Bool
        var endStopped = false
        /// When the running interval began; nil while paused.
        var intervalStart: Double?
        var turns: [Turn] = []
        var states: [State] = []

        struct Turn: Equatable, CustomStringConvertible {
            let time: Double
            let page: Int
            var description: String { "\(Int(time))→\(page)" }
        }
        struct State: Equatable, CustomStringConvertible {
            let time: Double
            let playing: Bool
            let reasons: Set<String>
            var description: String { "\(Int(time)):\(playing ? "▶" : "⏸")\(reasons.sorted())" }
        }

        init(count: Int, intervalMs: Double, loop: Bool, rewind: Bool, reducedMotion: Bool) {
            self.count = count
            self.intervalMs = intervalMs
            self.loop = loop
            self.rewind = rewind
            userStopped = false
            reducedMotionStop = reducedMotion
            intervalStart = reducedMotion ? nil : 0
            states.append(State(time: 0, playing: playing, reasons: reasons))
        }

        var playing: Bool { held.isEmpty && !userStopped && !reducedMotionStop && !endStopped }
        var reasons: Set<String> {
            var all = held
            if userStopped { all.insert("userStop") }
            if reducedMotionStop { all.insert("reducedMotion") }
            if endStopped { all.insert("end") }
            return all
        }

        /// Every turn due before `time` (an event at the same instant as a
        /// turn comes first, as input does before timers).
        mutating func advance(to time: Double) {
            while let start = intervalStart, start + intervalMs < time {
                let due = start + intervalMs
                if page + 1 < count {
                    page += 1
                } else if loop || rewind {
                    page = 0
                } else {
                    endStopped = true
                    intervalStart = nil
                    states.append(State(time: due, playing: playing, reasons: reasons))
                    return
                }
                turns.append(Turn(time: due, page: page))
                intervalStart = due
            }
        }

        /// An event at `time`: what changes, and a new state line if the
        /// state did; the interval starts from zero when play resumes.
        mutating func apply(_ change: (inout Reference) -> Void, at time: Double) {
            advance(to: time)
            let before = State(time: time, playing: playing, reasons: reasons)
            change(&self)
            let after = State(time: time, playing: playing, reasons: reasons)
            if after.playing && !before.playing { intervalStart = time }
            if !after.playing { intervalStart = nil }
            if after.playing != before.playing || after.reasons != before.reasons { states.append(after) }
        }
    }

    /// One random timed event: an outside pause reason beginning or ending,
    /// or the user's play or stop.
    enum Input {
        case pause(AutoplayPauseReason, Bool)
        case play
        case stop
    }

    static func randomInputs(_ random: inout SplitMix64) -> [(time: Double, input: Input)] {
        var time = 0.0
        var inputs: [(Double, Input)] = []
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            // Whole ms, often on a turn's instant (multiples of 500).
            time += Bool.random(using: &random) ? Double(Int.random(in: 0...8, using: &random) * 500) : Double(Int.random(in: 0...4000, using: &random))
            let input: Input
            switch Int.random(in: 0..<10, using: &random) {
            case 0: input = .play
            case 1: input = .stop
            default:
                input = .pause(AutoplayPauseReason.external.randomElement(using: &random)!, Bool.random(using: &random))
            }
            inputs.append((time, input))
        }
        return inputs
    }

    /// The view model, on a virtual clock, with a carousel that lands on
    /// each commanded card at once (a settled frame there), as a test app.
    static func viewModelRun(
        count: Int, settings: AutoplaySettings, loop: Bool, reducedMotion: Bool,
        inputs: [(time: Double, input: Input)], endTime: Double
    ) throws -> (turns: [Reference.Turn], states: [Reference.State]) {
        let scheduler = VirtualTimeScheduler()
        let viewModel = MapSyncViewModel(scheduler: scheduler, debounceMs: 0)
        let layout = try LayoutSpec(loop: loop).layout(dataCount: count)
        var turns: [Reference.Turn] = []
        var states: [Reference.State] = []
        let turnsBox = Box<[Reference.Turn]>([]), statesBox = Box<[Reference.State]>([])
        let scrolls = viewModel.carouselScroll.subscribe(onNext: { command in
            turnsBox.value.append(Reference.Turn(time: scheduler.now, page: command.dataIndex))
            // The carousel lands there; in loop mode the jump to the twin is
            // the layout's, as scrollViewDidScroll would make it.
            var offset = command.targetOffset
            if let target = layout.loopJumpTarget(for: offset) { offset = target }
            viewModel.frame(
                Frame(
                    time: scheduler.now, offset: offset, index: layout.focusedItem(at: offset),
                    dataIndex: layout.focusedDataIndex(at: offset), direction: .forward, isSettled: true))
        })
        let autoplay = viewModel.autoplay.subscribe(onNext: { state in
            statesBox.value.append(Reference.State(time: scheduler.now, playing: state.isPlaying, reasons: Set(state.reasons.map(\.rawValue))))
        })
        defer {
            scrolls.dispose()
            autoplay.dispose()
        }
        try viewModel.load(sampleStores(count), layout: layout)
        viewModel.setReduceMotion(reducedMotion)
        viewModel.setAutoplay(settings)
        for (time, input) in inputs {
            scheduler.advance(toInputAt: time)
            switch input {
            case .pause(let reason, let on): try viewModel.setPause(reason, on)
            case .play: viewModel.play()
            case .stop: viewModel.stop()
            }
        }
        scheduler.advance(toInputAt: endTime)
        viewModel.finish()
        turns = turnsBox.value
        states = statesBox.value
        return (turns, states)
    }

    /// The reference fed the same inputs.
    static func referenceRun(
        count: Int, settings: AutoplaySettings, loop: Bool, reducedMotion: Bool,
        inputs: [(time: Double, input: Input)], endTime: Double
    ) -> (turns: [Reference.Turn], states: [Reference.State]) {
        var reference = Reference(
            count: count, intervalMs: settings.intervalMs, loop: loop, rewind: settings.end == .rewind, reducedMotion: reducedMotion)
        for (time, input) in inputs {
            reference.apply(
                { model in
                    switch input {
                    case .pause(let reason, let on):
                        if on { model.held.insert(reason.rawValue) } else { model.held.remove(reason.rawValue) }
                    case .play:
                        model.userStopped = false
                        model.reducedMotionStop = false
                        model.endStopped = false
                    case .stop:
                        model.userStopped = true
                    }
                }, at: time)
        }
        reference.advance(to: endTime)
        return (reference.turns, reference.states)
    }

    @Test func theViewModelTurnsAndPausesAsTheReferenceOver10000RandomEventSequences() throws {
        var random = SplitMix64(seed: 0x2_2_2)
        var paused = 0, resumed = 0, turned = 0, endStops = 0
        for sequence in 0..<10_000 {
            let count = Int.random(in: 1...6, using: &random)
            let settings = try AutoplaySettings(
                intervalMs: Double(Int.random(in: 1...6, using: &random) * 500), end: Bool.random(using: &random) ? .rewind : .stop)
            let loop = Bool.random(using: &random)
            let reducedMotion = Int.random(in: 0..<5, using: &random) == 0
            let inputs = Self.randomInputs(&random)
            let endTime = (inputs.last?.time ?? 0) + Double(Int.random(in: 0...20_000, using: &random))
            let real = try Self.viewModelRun(
                count: count, settings: settings, loop: loop, reducedMotion: reducedMotion, inputs: inputs, endTime: endTime)
            let reference = Self.referenceRun(
                count: count, settings: settings, loop: loop, reducedMotion: reducedMotion, inputs: inputs, endTime: endTime)
            #expect(real.turns == reference.turns, "sequence \(sequence): turns")
            #expect(real.states == reference.states, "sequence \(sequence): states")
            if real.turns != reference.turns || real.states != reference.states { return }
            turned += real.turns.count
            paused += real.states.filter { !$0.playing }.count
            resumed += zip(real.states, real.states.dropFirst()).filter { !$0.playing && $1.playing }.count
            endStops += real.states.filter { $0.reasons.contains("end") }.count
        }
        // The sequences exercise every rule, not just the quiet path.
        #expect(turned > 10_000 && paused > 10_000 && resumed > 1_000 && endStops > 100, "\(turned) \(paused) \(resumed) \(endStops)")
    }

    @Test func theSimulatorTurnsAndPausesAsTheReferenceWithAnimatedScrolls() throws {
        // The whole simulator (scroller, frames, animations, the debounce):
        // fewer sequences, as each draws its frames.
        var random = SplitMix64(seed: 0x5_1_3)
        for sequence in 0..<200 {
            let count = Int.random(in: 1...6, using: &random)
            let settings = try AutoplaySettings(
                intervalMs: Double(Int.random(in: 1...6, using: &random) * 500), end: Bool.random(using: &random) ? .rewind : .stop)
            let loop = Bool.random(using: &random)
            let inputs = Self.randomInputs(&random)
            let endTime = (inputs.last?.time ?? 0) + Double(Int.random(in: 1...10_000, using: &random))
            var events = inputs.map { time, input -> ScrollScript.Event in
                switch input {
                case .pause(let reason, let on): .init(at: time, .pause(reason, on: on))
                case .play: .init(at: time, .autoplay(play: true))
                case .stop: .init(at: time, .autoplay(play: false))
                }
            }
            events.append(.init(at: endTime, .end))
            let script = ScrollScript(
                layout: LayoutSpec(loop: loop), autoplayMs: settings.intervalMs, autoplayEnd: settings.end, events: events)
            let run = try ScrollSimulation(script: script, stores: sampleStores(count)).run(trace: true)
            let turns = run.timeline.compactMap { entry -> Reference.Turn? in
                if case .scroll(let command) = entry.kind { Reference.Turn(time: entry.time, page: command.dataIndex) } else { nil }
            }
            let states = run.timeline.compactMap { entry -> Reference.State? in
                if case .autoplay(let state) = entry.kind {
                    Reference.State(time: entry.time, playing: state.isPlaying, reasons: Set(state.reasons.map(\.rawValue)))
                } else {
                    nil
                }
            }
            let reference = Self.referenceRun(
                count: count, settings: settings, loop: loop, reducedMotion: false, inputs: inputs, endTime: endTime)
            #expect(turns == reference.turns, "sequence \(sequence)")
            #expect(states == reference.states, "sequence \(sequence)")
            if turns != reference.turns || states != reference.states { return }
        }
    }
}

/// A mutable box for a `Sendable` closure in a single-threaded test.
final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
