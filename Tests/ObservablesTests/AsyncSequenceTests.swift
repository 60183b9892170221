import Observables
import Testing

/// `EventStream.values()`: the stream as an async sequence.
@Suite struct AsyncSequenceTests {
    @Test func valuesArriveInOrderAndCompletionEndsTheSequence() async throws {
        let subject = PublishSubject<Int>()
        let values = subject.asObservable().values()
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        var received: [Int] = []
        for try await value in values { received.append(value) }
        #expect(received == [1, 2])
    }

    @Test func anErrorIsThrownAfterTheValuesBeforeIt() async throws {
        struct Failure: Error, Equatable {}
        let subject = PublishSubject<Int>()
        var iterator = subject.asObservable().values().makeAsyncIterator()
        subject.onNext(7)
        subject.onError(Failure())
        #expect(try await iterator.next() == 7)
        await #expect(throws: Failure.self) { _ = try await iterator.next() }
    }

    @Test func bufferingNewestKeepsOnlyTheLatestForABusyConsumer() async throws {
        let subject = PublishSubject<Int>()
        var iterator = subject.asObservable().values(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
        for value in 1...5 { subject.onNext(value) }
        subject.onCompleted()
        #expect(try await iterator.next() == 5)
        #expect(try await iterator.next() == nil)
    }

    @Test func droppingTheSequenceDisposesItsSubscription() {
        let subject = PublishSubject<Int>()
        do {
            let values = subject.asObservable().values()
            #expect(subject.hasObservers)
            _ = values
        }
        #expect(!subject.hasObservers)
    }

    @Test func leavingTheLoopAndDroppingTheSequenceDisposesItsSubscription() async throws {
        let subject = PublishSubject<Int>()
        var values: AsyncThrowingStream<Int, any Error>? = subject.asObservable().values()
        subject.onNext(1)
        subject.onNext(2)
        var first: Int?
        for try await value in values! {
            first = value
            break
        }
        values = nil
        #expect(first == 1)
        #expect(!subject.hasObservers)
    }
}
