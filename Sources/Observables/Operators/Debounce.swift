import Locks

extension EventStream {
    /// Emits a value only after `due` of silence: each value restarts the
    /// wait (Rx `debounce`, RxSwift `Debounce.swift`).
    ///
    /// - The latest value is emitted `due` after it arrived, if no newer value
    ///   came meanwhile; timers run on `scheduler`.
    /// - On completion a pending value is emitted first, at the completion
    ///   time, then the completion.
    /// - On error the pending value is dropped and the error forwarded.
    /// - After dispose nothing is emitted.
    /// - `due == 0` passes values through synchronously.
    ///
    /// One timer at most is armed at a time, not one per value: when it fires
    /// and newer values arrived meanwhile, it is re-armed for the latest
    /// value's time + `due`. Same emissions, but a burst of a million values
    /// costs a handful of timers.
    @inlinable
    public func debounce(_ due: Milliseconds, scheduler: some EventScheduler) -> EventStream {
        precondition(due >= 0, "debounce: the due time must be 0 or more milliseconds, not \(due)")
        if due == 0 { return self }
        return EventStream(trusted: { observer in
            let sink = DebounceSink(downstream: observer, due: due, scheduler: scheduler)
            let upstream = subscribeTrusted(Observer { event in sink.on(event) })
            return Disposables.create(sink, upstream)
        })
    }
}

/// The state of one `debounce` subscription.
@usableFromInline
final class DebounceSink<Element: Sendable, S: EventScheduler>: Disposable {
    @usableFromInline
    struct State {
        /// The latest value, not yet emitted.
        @usableFromInline var pending: Element?
        /// When `pending` arrived.
        @usableFromInline var pendingTime: Milliseconds = 0
        /// Counts the values received (RxSwift's `id`): a timer armed at
        /// generation g may emit only if no value came after the g-th.
        @usableFromInline var generation: UInt64 = 0
        /// The generation the armed timer was armed for; `nil` when no timer is armed.
        @usableFromInline var armedGeneration: UInt64?
        /// The armed timer, or `Disposables.empty`. Not an optional: assigning
        /// an `(any Disposable)?` went through `Optional`'s generic value
        /// witnesses, about 400 instructions per timer (callgrind).
        @usableFromInline var timer: any Disposable = Disposables.empty
        /// After a terminal event or dispose: ignore everything.
        @usableFromInline var isStopped = false

        @inlinable
        init(isStopped: Bool = false) {
            self.isStopped = isStopped
        }

        /// Stops, and returns the pending value and the timer to cancel.
        @inlinable
        mutating func stop() -> (pending: Element?, timer: any Disposable) {
            defer { self = State(isStopped: true) }
            return (isStopped ? nil : pending, timer)
        }
    }

    @usableFromInline let downstream: Observer<Element>
    @usableFromInline let due: Milliseconds
    @usableFromInline let scheduler: S
    /// One lock for the whole state: values come from upstream, timers from
    /// the scheduler, which may be another thread (a real-time queue).
    @usableFromInline let state = StateLock(State())

    @inlinable
    init(downstream: Observer<Element>, due: Milliseconds, scheduler: S) {
        self.downstream = downstream
        self.due = due
        self.scheduler = scheduler
    }

    @inlinable
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let now = scheduler.now
            state.withLock { state in
                guard !state.isStopped else { return }
                state.pending = element
                state.pendingTime = now
                state.generation &+= 1
                // Lazy re-arming: an armed timer will see the newer generation
                // when it fires and wait again; no cancel, no new timer here.
                guard state.armedGeneration == nil else { return }
                arm(&state, at: now + due)
            }
        case .error(let error):
            // The pending value is dropped (RxSwift: errors are not delayed).
            let (_, timer) = state.withLock { $0.stop() }
            timer.dispose()
            downstream.on(.error(error))
        case .completed:
            // The pending value is flushed now, at the completion time.
            let (pending, timer) = state.withLock { $0.stop() }
            timer.dispose()
            if let pending {
                downstream.on(.next(pending))
            }
            downstream.on(.completed)
        }
    }

    /// The armed timer fires: emit the pending value if `due` has passed
    /// since it arrived, else wait again for the rest.
    @inlinable
    func fire() {
        let now = scheduler.now
        let value: Element? = state.withLock { state in
            guard !state.isStopped, let armed = state.armedGeneration, let pending = state.pending else { return nil }
            // Silent since arming (RxSwift's `id == currentId`), or since the
            // latest value for at least `due`: emit.
            if armed == state.generation || state.pendingTime + due <= now {
                state.pending = nil
                state.armedGeneration = nil
                state.timer = Disposables.empty
                return pending
            }
            arm(&state, at: state.pendingTime + due)
            return nil
        }
        if let value {
            downstream.on(.next(value))
        }
    }

    /// Arms the timer for the current generation. Scheduling under the lock
    /// is safe: a `EventScheduler` never runs the action inside `schedule`.
    @inlinable
    func arm(_ state: inout State, at time: Milliseconds) {
        state.armedGeneration = state.generation
        state.timer = scheduler.schedule(at: time) { [self] in fire() }
    }

    @inlinable
    func dispose() {
        let (_, timer) = state.withLock { $0.stop() }
        timer.dispose()
    }
}
