extension EventStream {
    /// Passes only the values for which `isIncluded` is true (Rx `filter`);
    /// terminal events pass unchanged.
    @inlinable
    public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> EventStream {
        EventStream(trusted: { observer in
            subscribeTrusted(
                Observer { event in
                    if case .next(let element) = event, !isIncluded(element) { return }
                    observer.on(event)
                })
        })
    }
}
