extension EventStream {
    /// Transforms each value with `transform` (Rx `map`); terminal events pass unchanged.
    @inlinable
    public func map<Result: Sendable>(
        _ transform: @escaping @Sendable (Element) -> Result
    ) -> EventStream<Result> {
        EventStream<Result>(trusted: { observer in
            subscribeTrusted(
                Observer { event in
                    switch event {
                    case .next(let element): observer.on(.next(transform(element)))
                    case .error(let error): observer.on(.error(error))
                    case .completed: observer.on(.completed)
                    }
                })
        })
    }
}
