/// Anything events can be sent to: `Observer` and the subjects (RxSwift's `ObserverType`).
public protocol ObserverType<Element> {
    associatedtype Element: Sendable

    /// Delivers one event; the caller obeys the Rx grammar and never calls concurrently
    /// (subjects excepted: they accept sends from several threads).
    func on(_ event: Event<Element>)
}

extension ObserverType {
    /// Delivers a value.
    @inlinable
    public func onNext(_ element: Element) {
        on(.next(element))
    }

    /// Ends the sequence with an error.
    @inlinable
    public func onError(_ error: any Error) {
        on(.error(error))
    }

    /// Ends the sequence normally.
    @inlinable
    public func onCompleted() {
        on(.completed)
    }
}

extension ObserverType where Self: Sendable {
    /// This observer as an `Observer` value, e.g. to subscribe a subject to
    /// another sequence (RxSwift's `asObserver()`).
    @inlinable
    public func asObserver() -> Observer<Element> {
        Observer { event in on(event) }
    }
}
