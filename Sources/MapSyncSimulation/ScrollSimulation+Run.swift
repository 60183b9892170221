import CarouselEngine
import Locks
import MapCamera
import MapSync
import Observables

extension ScrollSimulation {
    /// One play of a script: the scroller, the view model and the scheduler
    /// wired together, and the timeline they write, handed to a consumer entry
    /// by entry as it is produced (nothing of it is kept here).
    ///
    /// Script events are fed one at a time, each when the clock reaches it, and
    /// a drag schedules its next step only when the previous one runs: memory
    /// stays flat whatever the script's length or a drag's duration. Every
    /// frame, motion and event is checked against the ``SimulationLimits``.
    ///
    /// Everything runs on the thread that plays the scheduler; the locks make
    /// the scheduled closures `Sendable` and are never contended. No lock is
    /// held while calling into the view model, whose outputs call back here.
    final class Run: Sendable {
        private let scheduler = VirtualTimeScheduler()
        private let viewModel: MapSyncViewModel
        private let layout: CarouselLayout
        private let stores: any StoreDirectory
        private let trace: Bool
        private let limits: SimulationLimits
        /// Takes each timeline entry as it is produced.
        private let consume: @Sendable (TimelineEntry) throws -> Void

        /// The carousel side: the scroller and what is scheduled for it.
        private struct Carousel {
            var scroller: CarouselScroller
            /// The pending frame and its due time: at most one at a time.
            var frameTick: (time: Milliseconds, action: any Disposable)?
            /// The next step of the drag in progress, if any.
            var dragStep: (any Disposable)?
            /// The frames drawn so far.
            var frames = 0
            /// After `end` or a failure: nothing more happens.
            var isStopped = false

            mutating func cancelDragSteps() {
                dragStep?.dispose()
                dragStep = nil
            }
        }

        private struct Log {
            var failure: (any Error)?
            /// While a marker tap is handled: its scroll goes to the twin
            /// nearest the scroller now, as it always has; the view model's
            /// other scrolls (accessibility, autoplay) to the item it chose.
            var tapping = false
        }

        /// The script's accessibility settings.
        struct Accessibility {
            var autoplay: AutoplaySettings?
            var reduceMotion = false
            var statusTemplate = StatusTemplate.standard
            /// Whether `status` lines go into the timeline.
            var recordsStatus = false
        }
        private let accessibility: Accessibility

        private let carousel: StateLock<Carousel>
        private let log = StateLock(Log())

        init(
            layout: CarouselLayout, stores: any StoreDirectory, initialIndex: Int,
            trace: Bool, debounceMs: Milliseconds, zoom: Double, framing: MapFraming? = nil,
            accessibility: Accessibility = Accessibility(), limits: SimulationLimits,
            consume: @escaping @Sendable (TimelineEntry) throws -> Void
        ) throws(ScrollError) {
            self.layout = layout
            self.accessibility = accessibility
            self.stores = stores
            self.trace = trace
            self.limits = limits
            self.consume = consume
            let scheduler = scheduler
            viewModel =
                framing.map { MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, framing: $0) }
                ?? MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, zoom: zoom)
            carousel = StateLock(Carousel(scroller: try CarouselScroller(layout: layout, initialIndex: initialIndex)))
            viewModel.setReduceMotion(accessibility.reduceMotion)
            viewModel.setStatusTemplate(accessibility.statusTemplate)
        }

        /// Plays `script` until it ends (or until `time`), handing each entry to
        /// the consumer, and returns where the carousel stopped.
        func play(
            _ script: ScrollScript, events nextEvent: () throws -> ScrollScript.Event?, until time: Milliseconds?
        ) throws -> Outcome {
            let subscriptions = CompositeDisposable(
                viewModel.camera.subscribe(onNext: { [self] in record(.camera($0)) }, onError: { [self] in fail($0) }),
                viewModel.marker.subscribe(onNext: { [self] in record(.marker($0)) }, onError: { [self] in fail($0) }),
                viewModel.carouselScroll.subscribe(onNext: { [self] command in
                    if log.withLock({ $0.tapping }) {
                        perform { carousel in try scroll(&carousel, to: command.dataIndex, animated: command.animated) }
                    } else {
                        perform { carousel in try scroll(&carousel, command) }
                    }
                }),
                viewModel.accessibilityStatus.subscribe(onNext: { [self] status in
                    if accessibility.recordsStatus { record(.status(status)) }
                }),
                viewModel.autoplay.subscribe(onNext: { [self] in record(.autoplay($0)) })
            )
            // The closures above capture this run, and so do a pending drag step
            // and frame (left queued by a run stopped at `time` or by a failure):
            // break both cycles when done, or the run and its view model leak
            // (LeakSanitizer found it under `focus --script --at`).
            defer {
                subscriptions.dispose()
                stop()
            }

            try viewModel.load(stores, layout: layout, focusedIndex: script.initialIndex)
            // After the load, so the timeline's first autoplay line follows
            // the first camera; under reduced motion it starts paused.
            viewModel.setAutoplay(accessibility.autoplay)
            // Each event when the clock reaches it, before anything else queued
            // for that instant (as if all were scheduled up front, in list order).
            var position = -1
            while let event = try nextEvent() {
                position += 1
                if let time, event.at > time { break }
                guard !hasFailed else { break }
                guard event.at <= limits.maxVirtualMs else {
                    fail(
                        SimulationLimitError(
                            .virtualTime,
                            """
                            event \(position + 1) is at \(Self.format(event.at)) ms, past the limit of \
                            \(Self.format(limits.maxVirtualMs)) ms of virtual time
                            """))
                    break
                }
                scheduler.advance(toFirstAt: event.at)
                handle(event.action)
            }
            if !hasFailed {
                if let time {
                    scheduler.advance(to: time)
                } else {
                    scheduler.run()
                }
            }

            if let failure = log.withLock({ $0.failure }) { throw failure }
            let endTime = time ?? scheduler.now
            // Where the carousel is at the end, a motion in flight carried to it.
            var scroller = carousel.withLock { $0.scroller }
            let offset = endTime >= scroller.time ? try scroller.frame(at: endTime).offset : scroller.offset
            return Outcome(layout: layout, endTime: endTime, offset: offset)
        }

        // MARK: Script events

        private func handle(_ action: ScrollScript.Action) {
            switch action {
            case let .drag(by, durationMs, velocity):
                // scrollViewWillBeginDragging: autoplay pauses until it settles.
                viewModel.beginDragging()
                perform { carousel in
                    carousel.cancelDragSteps()
                    let end = scheduler.now + durationMs
                    guard end <= limits.maxVirtualMs else {
                        throw SimulationLimitError(
                            .virtualTime,
                            """
                            a drag from \(Self.format(scheduler.now)) ms over \(Self.format(durationMs)) ms ends past the \
                            limit of \(Self.format(limits.maxVirtualMs)) ms of virtual time
                            """)
                    }
                    try carousel.scroller.beginDrag(at: scheduler.now)
                    let drag = DragPath(by: by, start: scheduler.now, durationMs: durationMs, velocity: velocity ?? by / durationMs)
                    try scheduleDragStep(&carousel, drag, step: 1)
                }
            case let .offset(offset):
                perform { carousel in try carousel.scroller.setOffset(offset, at: scheduler.now) }
            case let .scrollTo(index, animated):
                perform { carousel in try scroll(&carousel, to: index, animated: animated) }
            case let .tapMarker(index):
                // Outside any lock: the view model emits, then commands the
                // scroll that `carouselScroll`'s subscriber performs.
                log.withLock { $0.tapping = true }
                do { try viewModel.tapMarker(index) } catch { fail(error) }
                log.withLock { $0.tapping = false }
            case .autoplay(let play):
                if play { viewModel.play() } else { viewModel.stop() }
            case let .pause(reason, on):
                do { try viewModel.setPause(reason, on) } catch { fail(error) }
            case .accessibilityScroll(let direction):
                // The view model commands the scroll (performed by the
                // `carouselScroll` subscriber) and sends the status.
                viewModel.accessibilityScroll(direction)
            case .end:
                let stopped = carousel.withLock { carousel in
                    defer { carousel.isStopped = true }
                    carousel.cancelDragSteps()
                    carousel.frameTick?.action.dispose()
                    carousel.frameTick = nil
                    return carousel.isStopped
                }
                if !stopped { viewModel.finish() }
            }
        }

        /// A drag in progress: the finger moves `by` linearly over `durationMs`
        /// from `start`, one step per frame interval (as touches arrive once per
        /// display refresh), and lifts at the end with `velocity`.
        private struct DragPath {
            let by: Double
            let start: Milliseconds
            let durationMs: Milliseconds
            let velocity: Double
        }

        /// Schedules step `step` of `drag` — or its lift once the steps reach
        /// its duration. Each step schedules the next when it runs, so a long
        /// drag holds one pending step, not millions.
        private func scheduleDragStep(_ carousel: inout Carousel, _ drag: DragPath, step: Int) throws {
            let elapsed = Double(step) * layout.frameMs
            if elapsed < drag.durationMs {
                carousel.dragStep = scheduler.schedule(at: drag.start + elapsed, lane: .input) { [self] in
                    perform { carousel in
                        try carousel.scroller.drag(translation: drag.by * elapsed / drag.durationMs, at: scheduler.now)
                        try scheduleDragStep(&carousel, drag, step: step + 1)
                    }
                }
            } else if drag.durationMs == 0 {
                try lift(&carousel, by: drag.by, velocity: drag.velocity)
            } else {
                carousel.dragStep = scheduler.schedule(at: drag.start + drag.durationMs, lane: .input) { [self] in
                    perform { carousel in try lift(&carousel, by: drag.by, velocity: drag.velocity) }
                }
            }
        }

        /// The drag's last step: the finger reaches `by` and lifts with `velocity`.
        private func lift(_ carousel: inout Carousel, by: Double, velocity: Double) throws {
            carousel.dragStep = nil
            try carousel.scroller.drag(translation: by, at: scheduler.now)
            let release = try carousel.scroller.release(velocity: velocity, at: scheduler.now)
            record(.release(release, velocity: velocity))
        }

        /// A commanded scroll (a `scrollTo`, or a marker tap's): it ends any drag.
        private func scroll(_ carousel: inout Carousel, to index: Int, animated: Bool) throws {
            carousel.cancelDragSteps()
            let command = try carousel.scroller.scroll(toItem: index, animated: animated, at: scheduler.now)
            record(.scroll(command))
        }

        /// A scroll the view model chose the item of (an accessibility page,
        /// an autoplay turn): it ends any drag.
        private func scroll(_ carousel: inout Carousel, _ command: ScrollCommand) throws {
            carousel.cancelDragSteps()
            record(.scroll(try carousel.scroller.perform(command, at: scheduler.now)))
        }

        // MARK: Frames

        /// Runs a command on the carousel, then books the frame it calls for.
        /// Does nothing once stopped.
        private func perform(_ command: (inout Carousel) throws -> Void) {
            var settledWithoutFrame = false
            do {
                try carousel.withLock { carousel in
                    guard !carousel.isStopped else { return }
                    try command(&carousel)
                    try bookFrame(&carousel)
                    // A command that leaves the carousel at rest where it was
                    // (a tap on the focused card, a drag by 0) draws no frame,
                    // as UIKit calls no scrollViewDidScroll; the view model
                    // still hears that it settled.
                    settledWithoutFrame = carousel.scroller.isSettled && carousel.frameTick == nil
                }
            } catch {
                fail(error)
            }
            // The consumer may have failed on an entry this command produced.
            if hasFailed { return stop() }
            if settledWithoutFrame { viewModel.didSettle() }
        }

        /// Keeps exactly one frame booked, at the scroller's `nextFrameTime`.
        /// A motion that would end past the virtual-time limit fails at once,
        /// rather than after drawing every frame up to the limit.
        private func bookFrame(_ carousel: inout Carousel) throws {
            if let motion = carousel.scroller.motion, motion.endTime > limits.maxVirtualMs {
                throw SimulationLimitError(
                    .virtualTime,
                    """
                    a motion (\(motion.kind.rawValue)) from \(Self.format(motion.startTime)) ms ends at \
                    \(Self.format(motion.endTime)) ms, past the limit of \(Self.format(limits.maxVirtualMs)) ms of virtual time
                    """)
            }
            let due = carousel.scroller.nextFrameTime
            if let booked = carousel.frameTick, booked.time == due { return }
            carousel.frameTick?.action.dispose()
            carousel.frameTick = due.map { due in
                (due, scheduler.schedule(at: due, lane: .input) { [self] in drawFrame() })
            }
        }

        /// A frame: traced, then handed to the view model (outside the lock).
        private func drawFrame() {
            let frame: Frame?
            do {
                frame = try carousel.withLock { carousel -> Frame? in
                    carousel.frameTick = nil
                    guard !carousel.isStopped else { return nil }
                    guard carousel.frames < limits.maxFrames else {
                        throw SimulationLimitError(
                            .frames,
                            """
                            the carousel would draw more than \(limits.maxFrames) frames (at \(Self.format(scheduler.now)) ms)
                            """)
                    }
                    carousel.frames += 1
                    let frame = try carousel.scroller.frame(at: scheduler.now)
                    try bookFrame(&carousel)
                    return frame
                }
            } catch {
                return fail(error)
            }
            guard let frame else { return }
            if let jump = frame.jump { record(.jump(jump)) }
            record(.frame(frame))
            viewModel.frame(frame)
            if hasFailed { stop() }
        }

        // MARK: Log

        /// Hands an entry to the consumer. A consumer's error is kept as the
        /// run's failure; the run stops at the next command or frame.
        private func record(_ kind: TimelineEntry.Kind) {
            guard trace || !kind.isTrace, !hasFailed else { return }
            let entry = TimelineEntry(time: scheduler.now, kind)
            do {
                try consume(entry)
            } catch {
                log.withLock { log in
                    if log.failure == nil { log.failure = error }
                }
            }
        }

        /// Whether the run has failed (a command, a lookup, a limit, the consumer).
        private var hasFailed: Bool { log.withLock { $0.failure != nil } }

        /// `1400`, `1400.5`, `1e+15`: a time for a message.
        private static func format(_ value: Double) -> String {
            ScrollScriptError.format(value)
        }

        /// Keeps the first failure and stops the carousel.
        private func fail(_ error: any Error) {
            log.withLock { log in
                if log.failure == nil { log.failure = error }
            }
            stop()
        }

        /// Stops the carousel: nothing more is scheduled for it.
        private func stop() {
            carousel.withLock { carousel in
                carousel.isStopped = true
                carousel.cancelDragSteps()
                carousel.frameTick?.action.dispose()
                carousel.frameTick = nil
            }
        }
    }
}
