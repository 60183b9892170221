/// Receives the events of an observable sequence.
///
/// A value type around one `@Sendable` handler, so passing an observer down
/// an operator chain costs no allocation. Whoever calls `on(_:)` must obey the
/// Rx grammar (`next* (error | completed)?`) and never call it concurrently:
/// every source in this module serializes its deliveries.
public struct Observer<Element: Sendable>: ObserverType, Sendable {
    @usableFromInline
    let handler: @Sendable (Event<Element>) -> Void

    /// Creates an observer that hands every event to `handler`.
    @inlinable
    public init(_ handler: @escaping @Sendable (Event<Element>) -> Void) {
        self.handler = handler
    }

    /// Creates an observer from one closure per kind of event.
    @inlinable
    public init(
        onNext: @escaping @Sendable (Element) -> Void,
        onError: @escaping @Sendable (any Error) -> Void = { _ in },
        onCompleted: @escaping @Sendable () -> Void = {}
    ) {
        self.handler = { event in
            switch event {
            case .next(let element): onNext(element)
            case .error(let error): onError(error)
            case .completed: onCompleted()
            }
        }
    }

    /// Delivers one event.
    @inlinable
    public func on(_ event: Event<Element>) {
        handler(event)
    }
}
