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
/// One lock and one snapshot per send, even for the usual pipeline subject
/// with a lone subscriber: an earlier lock-free lane for that case doubled
/// the pipeline benchmark's events per second, but it needed unmanaged
/// references and unchecked state for a stream that carries 60 to 120
/// frames a second while the user scrolls. Without it the pipeline is still
/// more than 10× OpenCombine's (BENCHMARKS.md, the pipeline).
@usableFromInline
final class SubjectCore<Element: Sendable>: Sendable {
    /// One subscription's observer, with the id its disposable removes.
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
    /// A core that replays `current` to new subscribers if it is given
    /// (`BehaviorSubject`), or replays nothing (`PublishSubject`).
    @usableFromInline
    init(current: Element?) {
        state = StateLock(State(current: current))
        replaysCurrent = current != nil
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

    /// Snapshots the subscribers under the lock, then delivers outside it
    /// (or queues behind the delivery already running).
    ///
    /// Inlinable, as is everything on the way of a value, so that it is
    /// specialized for the element type in the module that sends: called
    /// through the generic entry point it took 726 ns an event in the
    /// pipeline benchmark, against tens of nanoseconds specialized.
    @inlinable
    func on(_ event: Event<Element>) {
        let delivery: Delivery? = state.withLock { state in
            guard state.terminal == nil else { return nil }
            if replaysCurrent, case .next(let element) = event {
                state.current = element
            }
            let delivery = Delivery(event: event, recipients: state.subscribers)
            if event.isTerminal {
                // Stopped: drop the subscribers so their chains are freed.
                state.terminal = event
                state.subscribers = []
            }
            return state.schedule(delivery)
        }
        if let delivery {
            deliver(startingWith: delivery)
        }
    }

    @usableFromInline
    func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let (id, delivery): (UInt64?, Delivery?) = state.withLock { state in
            if let terminal = state.terminal {
                // A late subscriber to a stopped subject gets only the stop (RxSwift).
                let subscriber = Subscriber(id: 0, observer: observer)
                return (nil, state.schedule(Delivery(event: terminal, recipients: [subscriber])))
            }
            let subscriber = Subscriber(id: state.nextID, observer: observer)
            state.nextID += 1
            state.subscribers.append(subscriber)
            guard replaysCurrent, let current = state.current else {
                return (subscriber.id, nil)
            }
            // The replay is queued like any send, so it reaches the new
            // subscriber before any value sent after it subscribed.
            return (subscriber.id, state.schedule(Delivery(event: .next(current), recipients: [subscriber])))
        }
        if let delivery {
            deliver(startingWith: delivery)
        }
        guard let id else { return Disposables.empty }
        return SubjectSubscription(core: self, id: id)
    }

    fileprivate func unsubscribe(_ id: UInt64) {
        let removed: Subscriber? = state.withLock { state in
            guard let index = state.subscribers.firstIndex(where: { $0.id == id }) else { return nil }
            return state.subscribers.remove(at: index)
        }
        // Released outside the lock: the observer's deinit chain may re-enter.
        _ = removed
    }

    /// Runs `first`, then whatever was queued meanwhile, until the backlog is empty.
    @inlinable
    func deliver(startingWith first: Delivery) {
        first.run()
        drainBacklog()
    }

    /// Runs what was queued while this thread delivered, until the backlog is
    /// empty; then ends this thread's turn as the deliverer.
    @inlinable
    func drainBacklog() {
        // The common case — nobody sent while we delivered — allocates nothing:
        // `batch` stays the empty array singleton.
        var batch: [Delivery] = []
        while true {
            let isDrained = state.withLock { state in
                if state.backlog.isEmpty {
                    state.isDelivering = false
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
