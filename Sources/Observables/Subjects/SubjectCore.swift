import Locks

/// The shared machinery of `PublishSubject` and `BehaviorSubject`: the
/// subscriber list, the stop state, the optional current value, and
/// serialized delivery.
///
/// Thread safety without calling out under a lock: a send snapshots the
/// subscribers under the lock, then delivers outside it. Deliveries are
/// serialized for the whole subject (so per subscription, as the Rx grammar
/// requires): if a delivery is already running — on another thread, or
/// re-entrantly from an observer — the new one is queued and the running
/// thread delivers it next (the "emitter loop" of RxJava's
/// `SerializedObserver`). Senders never block on observers.
///
/// **The fast lane.** A pipeline's subject almost always has one subscriber
/// (the next operator) and one sending thread. For that case the subject
/// keeps the lone subscriber in ``sole`` and a three-state atomic,
/// ``fastLane``: a value is delivered after one compare-exchange
/// (`armed → delivering`) and handed back with another (`delivering →
/// armed`) — no lock, no snapshot, no retain (RxJava's `HalfSerializer`
/// fast path, with the subscriber in the same word of state). Everything else
/// — a terminal event, a second subscriber, a replaying subject, a send
/// while a delivery runs — takes the lock, and the first thing it does under
/// the lock is to turn the lane off (``disarm(_:)``): if a fast delivery is
/// in flight, the lock holder marks the subject as delivering and queues
/// behind it, and the fast deliverer, whose hand-back then fails, drains the
/// backlog as any deliverer does. The lane is armed again, under the lock,
/// only when no delivery runs and the conditions hold (``armIfSole(_:)``).
///
/// Why users get it by default: an app's carousel reports a frame on every
/// layout pass, 60 to 120 times a second on the main thread while the user
/// scrolls, and every frame crosses the view model's subjects. The lane
/// doubles the events per second the map-sync pipeline sustains
/// (BENCHMARKS.md, the pipeline) and changes nothing observable: the same
/// order, the same serialization, the same tests pass on either path.
@usableFromInline
final class SubjectCore<Element: Sendable>: Sendable {
    /// One subscription's observer; a class so that the fast lane can hold
    /// it by an unmanaged reference and borrow it without a retain.
    @usableFromInline
    final class Subscriber: Sendable {
        @usableFromInline let id: UInt64
        @usableFromInline let observer: Observer<Element>

        @inlinable
        init(id: UInt64, observer: Observer<Element>) {
            self.id = id
            self.observer = observer
        }
    }

    /// One event and the subscribers it goes to, fixed when it was sent: a
    /// subscriber added later does not get it, even if it is still queued.
    @usableFromInline
    struct Delivery: Sendable {
        @usableFromInline let event: Event<Element>
        @usableFromInline let recipients: ContiguousArray<Subscriber>

        @inlinable
        init(event: Event<Element>, recipients: ContiguousArray<Subscriber>) {
            self.event = event
            self.recipients = recipients
        }

        @inlinable
        func run() {
            for subscriber in recipients {
                subscriber.observer.on(event)
            }
        }
    }

    /// The state of the fast lane.
    @usableFromInline
    enum FastLane: UInt64, Sendable {
        /// Every send takes the lock.
        case off
        /// ``sole`` holds the only subscriber and no delivery runs: the next
        /// value may be delivered without the lock.
        case armed
        /// A value is being delivered through the fast lane.
        case delivering
    }

    /// The fast lane's state in an ``AtomicWord`` (`Synchronization.Atomic`
    /// on Linux, a locked word on Apple platforms below iOS 18), typed.
    @usableFromInline
    struct FastLaneWord: ~Copyable, Sendable {
        @usableFromInline let word = AtomicWord(FastLane.off.rawValue)

        @inlinable init() {}

        @inlinable borrowing func load() -> FastLane {
            FastLane(rawValue: word.load()).unsafelyUnwrapped
        }

        @inlinable borrowing func store(_ lane: FastLane) {
            word.store(lane.rawValue)
        }

        @inlinable borrowing func exchange(_ lane: FastLane) -> FastLane {
            FastLane(rawValue: word.exchange(lane.rawValue)).unsafelyUnwrapped
        }

        @inlinable borrowing func compareExchange(expected: FastLane, desired: FastLane) -> Bool {
            word.compareExchange(expected: expected.rawValue, desired: desired.rawValue)
        }
    }

    @usableFromInline
    struct State {
        @usableFromInline var subscribers: ContiguousArray<Subscriber> = []
        @usableFromInline var nextID: UInt64 = 0
        /// The current value, for a subject that replays it (`BehaviorSubject`).
        @usableFromInline var current: Element?
        /// The terminal event, once sent; the subject is then stopped.
        @usableFromInline var terminal: Event<Element>?
        /// Whether some thread is running deliveries (and will drain `backlog`).
        @usableFromInline var isDelivering = false
        @usableFromInline var backlog: [Delivery] = []
        /// Whether the fast lane was armed and not yet turned off under the
        /// lock (it may be `armed` or `delivering` meanwhile); spares the
        /// atomic exchange when it is known to be off.
        @usableFromInline var isArmed = false

        @inlinable
        init(current: Element?) {
            self.current = current
        }

        /// Returns `delivery` for the caller to run now, or queues it behind
        /// the deliveries already running.
        @inlinable
        mutating func schedule(_ delivery: Delivery) -> Delivery? {
            if delivery.recipients.isEmpty { return nil }
            if isDelivering {
                backlog.append(delivery)
                return nil
            }
            isDelivering = true
            return delivery
        }
    }

    @usableFromInline let state: StateLock<State>
    @usableFromInline let replaysCurrent: Bool
    @usableFromInline let fastLane = FastLaneWord()
    /// The lone subscriber, retained, while the lane is `armed` or
    /// `delivering`. Written only under the lock while the lane is `off` and
    /// no delivery runs; read only by the thread that moved the lane to
    /// `delivering` — the atomic's acquire/release orders the two, which is
    /// why this one field can opt out of the compiler's checking.
    @usableFromInline nonisolated(unsafe) var sole: Unmanaged<Subscriber>?

    /// A core that replays `current` to new subscribers if it is given
    /// (`BehaviorSubject`), or replays nothing (`PublishSubject`).
    @usableFromInline
    init(current: Element?) {
        state = StateLock(State(current: current))
        replaysCurrent = current != nil
    }

    deinit {
        // An armed lane holds its subscriber; nothing can be delivering now.
        if fastLane.load() == .armed {
            sole?.release()
        }
    }

    /// The latest value sent (or the initial one); `nil` for a core that does
    /// not replay.
    @usableFromInline
    var current: Element? {
        state.withLock { $0.current }
    }

    @usableFromInline
    var isStopped: Bool {
        state.withLock { $0.terminal != nil }
    }

    @usableFromInline
    var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }

    @inlinable
    func on(_ event: Event<Element>) {
        if case .next = event,
            fastLane.compareExchange(expected: .armed, desired: .delivering)
        {
            // `sole` is ours until we hand the lane back: borrow it, no retain.
            let sole = self.sole.unsafelyUnwrapped
            sole._withUnsafeGuaranteedRef { $0.observer.on(event) }
            if fastLane.compareExchange(expected: .delivering, desired: .armed) {
                return
            }
            // The lane was turned off while we delivered: whoever did it is
            // queued behind us, so we drain; and the lane's reference is ours to drop.
            sole.release()
            drainBacklog()
            return
        }
        sendUnderLock(event)
    }

    /// The slow path of `on(_:)`: terminal events, several subscribers, a
    /// replaying subject, or a send while another delivery runs.
    @usableFromInline
    func sendUnderLock(_ event: Event<Element>) {
        let (delivery, unarmed): (Delivery?, Unmanaged<Subscriber>?) = state.withLock { state in
            let unarmed = disarm(&state)
            guard state.terminal == nil else { return (nil, unarmed) }
            if replaysCurrent, case .next(let element) = event {
                state.current = element
            }
            let delivery = Delivery(event: event, recipients: state.subscribers)
            if event.isTerminal {
                // Stopped: drop the subscribers so their chains are freed.
                state.terminal = event
                state.subscribers = []
            }
            return (state.schedule(delivery), unarmed)
        }
        // Released outside the lock: the observer's deinit chain may re-enter.
        unarmed?.release()
        if let delivery {
            deliver(startingWith: delivery)
        }
    }

    @usableFromInline
    func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let (id, delivery, unarmed): (UInt64?, Delivery?, Unmanaged<Subscriber>?) = state.withLock { state in
            let unarmed = disarm(&state)
            if let terminal = state.terminal {
                // A late subscriber to a stopped subject gets only the stop (RxSwift).
                let subscriber = Subscriber(id: 0, observer: observer)
                return (nil, state.schedule(Delivery(event: terminal, recipients: [subscriber])), unarmed)
            }
            let subscriber = Subscriber(id: state.nextID, observer: observer)
            state.nextID += 1
            state.subscribers.append(subscriber)
            guard replaysCurrent, let current = state.current else {
                armIfSole(&state)
                return (subscriber.id, nil, unarmed)
            }
            // The replay is queued like any send, so it reaches the new
            // subscriber before any value sent after it subscribed.
            return (subscriber.id, state.schedule(Delivery(event: .next(current), recipients: [subscriber])), unarmed)
        }
        unarmed?.release()
        if let delivery {
            deliver(startingWith: delivery)
        }
        guard let id else { return Disposables.empty }
        return SubjectSubscription(core: self, id: id)
    }

    fileprivate func unsubscribe(_ id: UInt64) {
        let (removed, unarmed): (Subscriber?, Unmanaged<Subscriber>?) = state.withLock { state in
            let unarmed = disarm(&state)
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return (nil, unarmed) }
            let removed = state.subscribers.remove(at: index)
            armIfSole(&state)
            return (removed, unarmed)
        }
        // Released outside the lock: the observer's deinit chain may re-enter.
        unarmed?.release()
        _ = removed
    }

    /// Runs `first`, then whatever was queued meanwhile, until the backlog is empty.
    @inlinable
    func deliver(startingWith first: Delivery) {
        first.run()
        drainBacklog()
    }

    /// Runs what was queued while this thread delivered, until the backlog is
    /// empty; then ends this thread's turn as the deliverer, and re-arms the
    /// fast lane if it may.
    @usableFromInline
    func drainBacklog() {
        // The common case — nobody sent while we delivered — allocates nothing:
        // `batch` stays the empty array singleton.
        var batch: [Delivery] = []
        while true {
            let isDrained = state.withLock { state in
                if state.backlog.isEmpty {
                    state.isDelivering = false
                    armIfSole(&state)
                    return true
                }
                // Hand our emptied buffer back to the state, reusing its capacity.
                swap(&batch, &state.backlog)
                return false
            }
            if isDrained { return }
            for delivery in batch {
                delivery.run()
            }
            batch.removeAll(keepingCapacity: true)
        }
    }

    /// Under the lock: turns the fast lane off so that the state may change.
    ///
    /// If the lane was idle, returns its reference to the lone subscriber,
    /// for the caller to release outside the lock. If a fast delivery is in
    /// flight, the subject is marked as delivering — so the caller's own
    /// delivery queues behind it — and that deliverer keeps the reference,
    /// drains the backlog and ends the turn.
    @usableFromInline
    func disarm(_ state: inout State) -> Unmanaged<Subscriber>? {
        guard state.isArmed else { return nil }
        state.isArmed = false
        switch fastLane.exchange(.off) {
        case .armed:
            defer { sole = nil }
            return sole
        case .delivering:
            state.isDelivering = true
            return nil
        case .off:
            preconditionFailure("SubjectCore: the fast lane was turned off outside the lock")
        }
    }

    /// Under the lock: arms the fast lane if a value may now skip the lock —
    /// one subscriber, no delivery running, not stopped, nothing to replay.
    @usableFromInline
    func armIfSole(_ state: inout State) {
        guard !state.isArmed, !state.isDelivering, !replaysCurrent, state.terminal == nil,
            state.subscribers.count == 1
        else { return }
        sole = Unmanaged.passRetained(state.subscribers[0])
        state.isArmed = true
        fastLane.store(.armed)
    }
}

/// A subscription to a subject; disposing removes the subscriber.
///
/// Holds the subject weakly (as RxSwift's `SubscriptionDisposable`): a
/// subject no one can send into any more is freed with its subscribers.
private final class SubjectSubscription<Element: Sendable>: Disposable {
    private weak let core: SubjectCore<Element>?
    private let id: UInt64

    init(core: SubjectCore<Element>, id: UInt64) {
        self.core = core
        self.id = id
    }

    func dispose() {
        core?.unsubscribe(id)
    }
}
