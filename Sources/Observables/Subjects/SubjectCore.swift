import Locks

/// The shared machinery of `PublishSubject` and `BehaviorSubject`: the
/// subscriber list, the stop state, the optional current value, and
/// serialized delivery.
///
/// Thread safety without a thread ever waiting for an observer: every send,
/// subscribe and dispose is a job on a ``CombiningLock``. A thread that
/// finds no delivery running delivers now; one that finds a delivery
/// running — on another thread, or re-entrantly from an observer — leaves
/// its job to the delivering thread, which runs it next (the "emitter loop"
/// of RxJava's `SerializedObserver`). So deliveries are serialized for the
/// whole subject, as the Rx grammar requires per subscription, and each job
/// sees the subscribers as the jobs before it left them: a subscriber added
/// after a send does not get that send, even if it was still waiting.
///
/// Earlier versions took a lock to mark the delivery running and to snapshot
/// the subscribers, and a second to let go: two lock passes per send, which
/// were a third of the focus pipeline's cost per event (`perf`,
/// `scripts/benchmark --only pipeline`). A send that finds the subject idle
/// now costs two compare-and-swaps.
///
/// What other threads read at any moment — whether it stopped, how many
/// subscribers, the current value — is kept beside it under a lock of its
/// own, written as jobs are submitted and run; a `PublishSubject`'s sends
/// never touch it.
@usableFromInline
final class SubjectCore<Element: Sendable>: Sendable {
    @usableFromInline
    struct Subscriber: Sendable {
        @usableFromInline let id: UInt64
        @usableFromInline let observer: Observer<Element>

        @inlinable
        init(id: UInt64, observer: Observer<Element>) {
            self.id = id
            self.observer = observer
        }
    }

    /// What the delivering thread owns.
    @usableFromInline
    struct Deliveries: CombinableState {
        @usableFromInline
        enum Job: Sendable {
            case send(Event<Element>)
            case subscribe(Subscriber)
            case unsubscribe(id: UInt64)
        }

        @usableFromInline var subscribers: ContiguousArray<Subscriber> = []
        /// The latest value delivered (or the initial one), replayed to each
        /// new subscriber; nil for a core that does not replay.
        @usableFromInline var current: Element?
        /// The terminal event, once delivered; the subject is then stopped.
        @usableFromInline var terminal: Event<Element>?
        /// Where the subject's readable summary is kept, written as
        /// subscribers come and go.
        @usableFromInline let summary: SummaryLock

        @inlinable
        init(current: Element?, summary: SummaryLock) {
            self.current = current
            self.summary = summary
        }

        /// Makes the subscriber count other threads read the current one.
        @inlinable
        func publishSubscriberCount() {
            summary.lock.withLock { [count = subscribers.count] in $0.subscriberCount = count }
        }

        @inlinable
        mutating func perform(_ job: Job) {
            switch job {
            case .send(let event):
                guard terminal == nil else { return }
                if current != nil, case .next(let element) = event {
                    current = element
                }
                for subscriber in subscribers {
                    subscriber.observer.on(event)
                }
                if event.isTerminal {
                    // Stopped: drop the subscribers so their chains are freed.
                    terminal = event
                    subscribers = []
                    publishSubscriberCount()
                }
            case .subscribe(let subscriber):
                if let terminal {
                    // A late subscriber to a stopped subject gets only the stop (RxSwift).
                    subscriber.observer.on(terminal)
                    return
                }
                subscribers.append(subscriber)
                publishSubscriberCount()
                if let current {
                    subscriber.observer.on(.next(current))
                }
            case .unsubscribe(let id):
                guard let index = subscribers.firstIndex(where: { $0.id == id }) else { return }
                subscribers.remove(at: index)
                publishSubscriberCount()
            }
        }
    }

    /// What any thread may read now.
    @usableFromInline
    struct Summary: Sendable {
        /// Whether a terminal event was sent (delivered or waiting).
        @usableFromInline var isStopped = false
        @usableFromInline var subscriberCount = 0
        /// The latest value sent, for a core that replays it.
        @usableFromInline var current: Element?
        @usableFromInline var nextID: UInt64 = 0

        @inlinable
        init(current: Element?) {
            self.current = current
        }
    }

    /// ``Summary`` under a lock, shared by the core and its deliveries.
    @usableFromInline
    final class SummaryLock: Sendable {
        @usableFromInline let lock: StateLock<Summary>

        @inlinable
        init(_ summary: Summary) {
            lock = StateLock(summary)
        }
    }

    @usableFromInline let deliveries: CombiningLock<Deliveries>
    @usableFromInline let summary: SummaryLock
    @usableFromInline let replaysCurrent: Bool

    /// A core that replays `current` to new subscribers if it is given
    /// (`BehaviorSubject`), or replays nothing (`PublishSubject`).
    @usableFromInline
    init(current: Element?) {
        summary = SummaryLock(Summary(current: current))
        deliveries = CombiningLock(Deliveries(current: current, summary: summary))
        replaysCurrent = current != nil
    }

    /// The latest value sent (or the initial one); `nil` for a core that does
    /// not replay.
    @usableFromInline
    var current: Element? {
        summary.lock.withLock { $0.current }
    }

    @usableFromInline
    var isStopped: Bool {
        summary.lock.withLock { $0.isStopped }
    }

    @usableFromInline
    var subscriberCount: Int {
        summary.lock.withLock { $0.subscriberCount }
    }

    /// Delivers `event` to the subscribers, now or after the delivery
    /// running; ignored once stopped.
    ///
    /// Inlinable, as is everything on the way of a value, so that it is
    /// specialized for the element type in the module that sends: called
    /// through the generic entry point it took 726 ns an event in the
    /// pipeline benchmark, against tens of nanoseconds specialized.
    @inlinable
    func on(_ event: Event<Element>) {
        if replaysCurrent || event.isTerminal {
            let isStopped = summary.lock.withLock { summary in
                if summary.isStopped { return true }
                if case .next(let element) = event {
                    summary.current = element
                }
                summary.isStopped = event.isTerminal
                return false
            }
            if isStopped { return }
        }
        deliveries.submit(.send(event))
    }

    @usableFromInline
    func subscribe(_ observer: Observer<Element>) -> any Disposable {
        let id = summary.lock.withLock { summary in
            defer { summary.nextID += 1 }
            return summary.nextID
        }
        deliveries.submit(.subscribe(Subscriber(id: id, observer: observer)))
        return SubjectSubscription(core: self, id: id)
    }

    fileprivate func unsubscribe(_ id: UInt64) {
        deliveries.submit(.unsubscribe(id: id))
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
