import Synchronization

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
final class SubjectCore<Element: Sendable>: Sendable {
    private struct Subscriber {
        let id: UInt64
        let observer: Observer<Element>
    }

    /// One event and the subscribers it goes to, fixed when it was sent: a
    /// subscriber added later does not get it, even if it is still queued.
    private struct Delivery {
        let event: Event<Element>
        let recipients: ContiguousArray<Subscriber>

        func run() {
            for subscriber in recipients {
                subscriber.observer.on(event)
            }
        }
    }

    private struct State {
        var subscribers: ContiguousArray<Subscriber> = []
        var nextID: UInt64 = 0
        /// The current value, for a subject that replays it (`BehaviorSubject`).
        var current: Element?
        /// The terminal event, once sent; the subject is then stopped.
        var terminal: Event<Element>?
        /// Whether some thread is running deliveries (and will drain `backlog`).
        var isDelivering = false
        var backlog: [Delivery] = []

        /// Returns `delivery` for the caller to run now, or queues it behind
        /// the deliveries already running.
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

    private let state: Mutex<State>
    private let replaysCurrent: Bool

    /// A core that replays `current` to new subscribers if it is given
    /// (`BehaviorSubject`), or replays nothing (`PublishSubject`).
    init(current: Element?) {
        state = Mutex(State(current: current))
        replaysCurrent = current != nil
    }

    /// The latest value sent (or the initial one); `nil` for a core that does
    /// not replay.
    var current: Element? {
        state.withLock { $0.current }
    }

    var isStopped: Bool {
        state.withLock { $0.terminal != nil }
    }

    var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }

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

    func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let (id, delivery): (UInt64?, Delivery?) = state.withLock { state in
            guard state.terminal == nil else {
                // A late subscriber to a stopped subject gets only the stop (RxSwift).
                let subscriber = Subscriber(id: 0, observer: observer)
                return (nil, state.schedule(Delivery(event: state.terminal!, recipients: [subscriber])))
            }
            let subscriber = Subscriber(id: state.nextID, observer: observer)
            state.nextID += 1
            state.subscribers.append(subscriber)
            guard replaysCurrent, let current = state.current else { return (subscriber.id, nil) }
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
    private func deliver(startingWith first: Delivery) {
        first.run()
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
