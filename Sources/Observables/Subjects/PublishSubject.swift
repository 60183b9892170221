/// Both an observer and an observable: every event sent to it goes to its
/// current subscribers (RxSwift's `PublishSubject`).
///
/// A subscriber sees only what is sent after it subscribed; after the subject
/// stops, a new subscriber gets only the terminal event. Safe to send into
/// from several threads: deliveries are serialized (see `SubjectCore`).
public final class PublishSubject<Element: Sendable>: ObserverType, Sendable {
    @usableFromInline
    let core = SubjectCore<Element>(current: nil)

    /// Creates a subject with no subscribers.
    public init() {}

    /// Whether the subject has received a terminal event.
    public var isStopped: Bool { core.isStopped }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.subscriberCount > 0 }

    /// Sends `event` to the current subscribers; ignored once stopped.
    @inlinable
    public func on(_ event: Event<Element>) { core.on(event) }

    /// The subject seen as an observable.
    @inlinable
    public func asObservable() -> EventStream<Element> {
        EventStream(trusted: { [core] observer in core.subscribe(observer) })
    }
}
