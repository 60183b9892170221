import CarouselEngine
import MapCamera
import Observables
import Synchronization

extension ScrollSimulation {
    /// One play of a script: the scroller, the view model and the scheduler
    /// wired together, and the timeline they write.
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

        /// The carousel side: the scroller and what is scheduled for it.
        private struct Carousel {
            var scroller: CarouselScroller
            /// The pending frame and its due time: at most one at a time.
            var frameTick: (time: Milliseconds, action: any Disposable)?
            /// The steps left of the drag in progress.
            var dragSteps: [any Disposable] = []
            /// After `end` or a failure: nothing more happens.
            var isStopped = false

            mutating func cancelDragSteps() {
                for step in dragSteps { step.dispose() }
                dragSteps = []
            }
        }

        private struct Log {
            var timeline: [TimelineEntry] = []
            var failure: (any Error)?
        }

        private let carousel: Mutex<Carousel>
        private let log = Mutex(Log())

        init(
            layout: CarouselLayout, stores: any StoreDirectory, initialIndex: Int,
            trace: Bool, debounceMs: Milliseconds, zoom: Double, framing: MapFraming? = nil
        ) throws(ScrollError) {
            self.layout = layout
            self.stores = stores
            self.trace = trace
            let scheduler = scheduler
            viewModel = framing.map { MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, framing: $0) }
                ?? MapSyncViewModel(scheduler: scheduler, debounceMs: debounceMs, zoom: zoom)
            carousel = Mutex(Carousel(scroller: try CarouselScroller(layout: layout, initialIndex: initialIndex)))
        }

        /// Plays `script` until it ends (or until `time`) and returns the timeline.
        func play(_ script: ScrollScript, until time: Milliseconds?) throws -> Outcome {
            let subscriptions = CompositeDisposable(
                viewModel.camera.subscribe(onNext: { [self] in record(.camera($0)) }, onError: { [self] in fail($0) }),
                viewModel.marker.subscribe(onNext: { [self] in record(.marker($0)) }, onError: { [self] in fail($0) }),
                viewModel.carouselScroll.subscribe(onNext: { [self] command in
                    perform { carousel in try scroll(&carousel, to: command.dataIndex, animated: command.animated) }
                })
            )
            // The closures above capture this run: break the cycle when done.
            defer { subscriptions.dispose() }

            try viewModel.load(stores, layout: layout, focusedIndex: script.initialIndex)
            for event in script.events {
                _ = scheduler.schedule(at: event.at, lane: .input) { [self] in handle(event.action) }
            }
            if let time {
                scheduler.advance(to: time)
            } else {
                scheduler.run()
            }

            let (timeline, failure) = log.withLock { ($0.timeline, $0.failure) }
            if let failure { throw failure }
            let endTime = time ?? scheduler.now
            // Where the carousel is at the end, a motion in flight carried to it.
            var scroller = carousel.withLock { $0.scroller }
            let offset = endTime >= scroller.time ? try scroller.frame(at: endTime).offset : scroller.offset
            return Outcome(layout: layout, timeline: timeline, endTime: endTime, offset: offset)
        }

        // MARK: Script events

        private func handle(_ action: ScrollScript.Action) {
            switch action {
            case let .drag(by, durationMs, velocity):
                perform { carousel in
                    carousel.cancelDragSteps()
                    try carousel.scroller.beginDrag(at: scheduler.now)
                    try scheduleDrag(&carousel, by: by, durationMs: durationMs, velocity: velocity ?? by / durationMs)
                }
            case let .offset(offset):
                perform { carousel in try carousel.scroller.setOffset(offset, at: scheduler.now) }
            case let .scrollTo(index, animated):
                perform { carousel in try scroll(&carousel, to: index, animated: animated) }
            case let .tapMarker(index):
                // Outside any lock: the view model emits, then commands the
                // scroll that `carouselScroll`'s subscriber performs.
                do { try viewModel.tapMarker(index) } catch { fail(error) }
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

        /// The finger's path: it moves `by` linearly over `durationMs`, one step
        /// per frame interval (as touches arrive once per display refresh), and
        /// lifts at the end with `velocity`.
        private func scheduleDrag(_ carousel: inout Carousel, by: Double, durationMs: Milliseconds, velocity: Double) throws {
            let start = scheduler.now, frameMs = layout.frameMs
            var step = 1
            while Double(step) * frameMs < durationMs {
                let elapsed = Double(step) * frameMs
                carousel.dragSteps.append(scheduler.schedule(at: start + elapsed, lane: .input) { [self] in
                    perform { carousel in try carousel.scroller.drag(translation: by * elapsed / durationMs, at: scheduler.now) }
                })
                step += 1
            }
            if durationMs == 0 {
                return try lift(&carousel, by: by, velocity: velocity)
            }
            carousel.dragSteps.append(scheduler.schedule(at: start + durationMs, lane: .input) { [self] in
                perform { carousel in try lift(&carousel, by: by, velocity: velocity) }
            })
        }

        /// The drag's last step: the finger reaches `by` and lifts with `velocity`.
        private func lift(_ carousel: inout Carousel, by: Double, velocity: Double) throws {
            carousel.dragSteps = []
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

        // MARK: Frames

        /// Runs a command on the carousel, then books the frame it calls for.
        /// Does nothing once stopped.
        private func perform(_ command: (inout Carousel) throws -> Void) {
            do {
                try carousel.withLock { carousel in
                    guard !carousel.isStopped else { return }
                    try command(&carousel)
                    bookFrame(&carousel)
                }
            } catch {
                fail(error)
            }
        }

        /// Keeps exactly one frame booked, at the scroller's `nextFrameTime`.
        private func bookFrame(_ carousel: inout Carousel) {
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
                    let frame = try carousel.scroller.frame(at: scheduler.now)
                    bookFrame(&carousel)
                    return frame
                }
            } catch {
                return fail(error)
            }
            guard let frame else { return }
            if let jump = frame.jump { record(.jump(jump)) }
            record(.frame(frame))
            viewModel.frame(frame)
        }

        // MARK: Log

        private func record(_ kind: TimelineEntry.Kind) {
            guard trace || !kind.isTrace else { return }
            let entry = TimelineEntry(time: scheduler.now, kind)
            log.withLock { $0.timeline.append(entry) }
        }

        /// Keeps the first failure and stops the carousel.
        private func fail(_ error: any Error) {
            log.withLock { log in
                if log.failure == nil { log.failure = error }
            }
            carousel.withLock { carousel in
                carousel.isStopped = true
                carousel.cancelDragSteps()
                carousel.frameTick?.action.dispose()
                carousel.frameTick = nil
            }
        }
    }
}
