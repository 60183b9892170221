extension EventStream {
    /// The stream's values as an async sequence, for `for try await`: each
    /// call subscribes anew, `completed` ends the sequence, `error` throws.
    ///
    /// The subscription lasts as long as the iteration: leaving the loop,
    /// cancelling its task or dropping the sequence disposes it (the
    /// stream's `onTermination`).
    ///
    /// Values sent while the consumer is busy wait in the sequence's buffer,
    /// as `bufferingPolicy` says: `.unbounded` (the default) keeps every one,
    /// `.bufferingNewest(1)` only the latest, for a consumer that wants the
    /// current state rather than every step.
    public func values(
        bufferingPolicy: AsyncThrowingStream<Element, any Error>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream(bufferingPolicy: bufferingPolicy) { continuation in
            let subscription = subscribe(
                onNext: { continuation.yield($0) },
                onError: { continuation.finish(throwing: $0) },
                onCompleted: { continuation.finish() })
            continuation.onTermination = { _ in subscription.dispose() }
        }
    }
}
