/// A subject with a current value, replayed to each new subscriber
/// (RxSwift's `BehaviorSubject`).
///
/// A new subscriber first receives the current value, then everything sent
/// afterwards. After the subject stops, a new subscriber gets only the
/// terminal event. Safe to send into from several threads: deliveries are
/// serialized (see `SubjectCore`).
public final class BehaviorSubject<Element: Sendable>: ObserverType, Sendable {
    @usableFromInline
    let core: SubjectCore<Element>

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        core = SubjectCore(current: value)
    }

    /// The latest value sent, or the initial value; it stays readable after
    /// the subject stops.
    public var value: Element {
        // A replaying core is created with a value and never clears it.
        core.current!
    }

    /// Whether the subject has received a terminal event.
    public var isStopped: Bool { core.isStopped }

    /// Whether anyone is subscribed.
    public var hasObservers: Bool { core.subscriberCount > 0 }

    /// Makes `event`'s value current and sends it; ignored once stopped.
    @inlinable
    public func on(_ event: Event<Element>) { core.on(event) }

    /// The subject seen as an observable.
    @inlinable
    public func asObservable() -> EventStream<Element> {
        EventStream(trusted: { [core] observer in core.subscribe(observer) })
    }
}
