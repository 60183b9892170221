import Dispatch
import Locks
import Observables
import ObservablesTesting
import Testing

@Suite struct SubjectTests {
    let scheduler = VirtualTimeScheduler()

    @Test func aLatePublishSubscriberSeesOnlyLaterValues() {
        let subject = PublishSubject<String>()
        let early = scheduler.record(subject.asObservable())
        subject.onNext("A")
        let late = scheduler.record(subject.asObservable())
        subject.onNext("B")
        subject.onCompleted()
        expectEvents(early.events, [.next(0, "A"), .next(0, "B"), .completed(0)])
        expectEvents(late.events, [.next(0, "B"), .completed(0)])
    }

    @Test func aPublishSubscriberAfterTheStopGetsOnlyTheStop() {
        let subject = PublishSubject<String>()
        subject.onNext("A")
        subject.onError(TestError("closed"))
        subject.onNext("B")
        let late = scheduler.record(subject.asObservable())
        expectEvents(late.events, [.error(0, TestError("closed"))])
        #expect(subject.isStopped)
    }

    @Test func behaviorReplaysItsCurrentValueToEachNewSubscriber() {
        let subject = BehaviorSubject(value: "A")
        let first = scheduler.record(subject.asObservable())
        scheduler.advance(to: 100)
        subject.onNext("B")
        let second = scheduler.record(subject.asObservable())
        scheduler.advance(to: 200)
        subject.onNext("C")
        expectEvents(first.events, [.next(0, "A"), .next(100, "B"), .next(200, "C")])
        expectEvents(second.events, [.next(100, "B"), .next(200, "C")])
        #expect(subject.value == "C")
    }

    @Test func behaviorAfterTheStopGivesOnlyTheStopButKeepsItsValue() {
        let subject = BehaviorSubject(value: 1)
        subject.onNext(2)
        subject.onCompleted()
        subject.onNext(3)
        let late = scheduler.record(subject.asObservable())
        expectEvents(late.events, [.completed(0)])
        #expect(subject.value == 2)
    }

    @Test func aSubjectSubscribedToASequenceRelaysItToItsSubscribers() {
        let source = scheduler.hotObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let subject = BehaviorSubject(value: 0)
        let relayed = scheduler.record(subject.asObservable())
        let relay = source.subscribe(subject.asObserver())
        scheduler.run()
        expectEvents(relayed.events, [.next(0, 0), .next(10, 1), .next(20, 2), .completed(30)])
        #expect(subject.value == 2)
        relay.dispose()
    }

    @Test func aValueSentFromInsideOnNextIsDeliveredAfterTheCurrentOne() {
        // Re-entrant sends are queued, never nested: every subscriber sees the
        // same order, and no observer is entered twice at once.
        let subject = PublishSubject<Int>()
        let first = Log<Int>()
        let second = Log<Int>()
        let feedback = subject.asObservable().subscribe(onNext: { value in
            first.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let listener = subject.asObservable().subscribe(onNext: second.append)
        subject.onNext(1)
        #expect(first.entries == [1, 2])
        #expect(second.entries == [1, 2])
        feedback.dispose()
        listener.dispose()
    }

    @Test func concurrentSendersAreDeliveredExactlyOnceSerializedAndInOrderPerSender() {
        let senders = 8
        let valuesPerSender = 10_000
        let subject = PublishSubject<Int>()
        let delivering = AtomicWord(0)
        let overlaps = AtomicWord(0)
        let received = StateLock<[[Int]]>(Array(repeating: [], count: senders))
        let subscription = subject.asObservable().subscribe(onNext: { value in
            // Serialized delivery: nobody else may be inside this observer.
            if delivering.exchange(1) == 1 {
                overlaps.add(1)
            }
            received.withLock { $0[value / valuesPerSender].append(value % valuesPerSender) }
            delivering.store(0)
        })
        DispatchQueue.concurrentPerform(iterations: senders) { sender in
            for index in 0..<valuesPerSender {
                subject.onNext(sender * valuesPerSender + index)
            }
        }
        subscription.dispose()
        #expect(overlaps.load() == 0)
        let perSender = received.withLock { $0 }
        for (sender, values) in perSender.enumerated() {
            #expect(values == Array(0..<valuesPerSender), "sender \(sender): \(values.count) values, out of order or missing")
        }
    }

    @Test func subscribersJoiningDuringConcurrentSendsGetTheReplayThenLaterValuesInOrder() throws {
        let subject = BehaviorSubject(value: -1)
        let subscribers = 4
        let valueCount = 5_000
        let received = (0..<subscribers).map { _ in Log<Int>() }
        let subscriptions = Log<any Disposable>()
        DispatchQueue.concurrentPerform(iterations: subscribers + 1) { worker in
            if worker == subscribers {
                for value in 0..<valueCount { subject.onNext(value) }
                return
            }
            subscriptions.append(subject.asObservable().subscribe(onNext: received[worker].append))
        }
        for (index, log) in received.enumerated() {
            let seen = log.entries
            // The first value is the replay; from there on, consecutive values
            // with no gap and no duplicate, up to the last one sent.
            let first = try #require(seen.first, "subscriber \(index) got no replay")
            #expect(seen == Array(first..<(first + seen.count)), "subscriber \(index)")
            #expect(seen.last == valueCount - 1, "subscriber \(index)")
        }
        for entry in subscriptions.entries { entry.dispose() }
    }
}
