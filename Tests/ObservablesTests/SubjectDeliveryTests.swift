import Dispatch
import Foundation
import Locks
import Observables
import ObservablesTesting
import TestSupport
import Testing

/// A subject's deliveries stay serialized and in order, and its subscribers
/// are released, through re-entrant sends, terminal events, subscribers
/// joining and leaving, and concurrent senders.
@Suite struct SubjectDeliveryTests {
    final class Canary: Sendable {
        func touch() {}
    }

    /// Fails the test if two deliveries of one subject ever overlap.
    final class OverlapDetector: Sendable {
        private let inside = AtomicWord(0)
        private let overlapCount = AtomicWord(0)

        var overlaps: Int { Int(overlapCount.load()) }

        func enter() {
            if inside.exchange(1) == 1 {
                overlapCount.add(1)
            }
        }

        func leave() {
            inside.store(0)
        }
    }

    @Test func subscribersGetWhatIsSentWhileTheyAreSubscribed() {
        let subject = PublishSubject<Int>()
        let first = Log<Int>()
        let second = Log<Int>()
        let firstSubscription = subject.asObservable().subscribe(onNext: first.append)
        subject.onNext(1)
        let secondSubscription = subject.asObservable().subscribe(onNext: second.append)
        subject.onNext(2)
        firstSubscription.dispose()
        subject.onNext(3)
        secondSubscription.dispose()
        subject.onNext(4)
        #expect(first.entries == [1, 2])
        #expect(second.entries == [2, 3])
    }

    @Test func aBehaviorSubjectsValueStaysCurrent() {
        let subject = BehaviorSubject(value: 0)
        let seen = Log<Int>()
        let subscription = subject.asObservable().subscribe(onNext: seen.append)
        subject.onNext(1)
        subject.onNext(2)
        #expect(subject.value == 2)
        #expect(seen.entries == [0, 1, 2])
        subscription.dispose()
    }

    @Test func aValueSentByTheLoneSubscriberIsDeliveredAfterTheCurrentOne() {
        let subject = PublishSubject<Int>()
        let seen = Log<Int>()
        let detector = OverlapDetector()
        let subscription = subject.asObservable().subscribe(onNext: { value in
            detector.enter()
            seen.append(value)
            if value == 1 {
                // Queued, not nested: 2 comes after this delivery's end mark.
                subject.onNext(2)
                seen.append(-1)
            }
            detector.leave()
        })
        subject.onNext(1)
        #expect(seen.entries == [1, -1, 2])
        #expect(detector.overlaps == 0)
        subject.onNext(3)
        #expect(seen.entries == [1, -1, 2, 3])
        subscription.dispose()
    }

    @Test func aCompletionSentFromInsideADeliveryEndsTheSubjectAfterIt() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>(scheduler: VirtualTimeScheduler())
        let subscription = subject.asObservable().subscribe(
            Observer { event in
                recorder.observer.on(event)
                if event.element == 1 { subject.onCompleted() }
            })
        subject.onNext(1)
        subject.onNext(2)
        expectEvents(recorder.events, [.next(0, 1), .completed(0)])
        #expect(subject.isStopped)
        #expect(!subject.hasObservers)
        subscription.dispose()
    }

    @Test func aSubscriberJoiningFromInsideADeliveryGetsOnlyLaterValues() {
        let subject = PublishSubject<Int>()
        let first = Log<Int>()
        let second = Log<Int>()
        let joined = Log<any Disposable>()
        let subscription = subject.asObservable().subscribe(onNext: { value in
            first.append(value)
            if value == 1 {
                joined.append(subject.asObservable().subscribe(onNext: second.append))
            }
        })
        subject.onNext(1)
        subject.onNext(2)
        #expect(first.entries == [1, 2])
        #expect(second.entries == [2])
        subscription.dispose()
        for entry in joined.entries { entry.dispose() }
    }

    @Test func theLoneSubscriberDisposingItselfMidDeliveryGetsNothingMoreAndIsReleased() {
        let subject = PublishSubject<Int>()
        let seen = Log<Int>()
        let own = StateLock<(any Disposable)?>(nil)
        weak var watched: Canary?
        do {
            let canary = Canary()
            watched = canary
            let subscription = subject.asObservable().subscribe(onNext: { value in
                canary.touch()
                seen.append(value)
                own.withLock { $0 }?.dispose()
            })
            own.withLock { $0 = subscription }
        }
        subject.onNext(1)
        subject.onNext(2)
        #expect(seen.entries == [1])
        #expect(!subject.hasObservers)
        own.withLock { $0 = nil }
        #expect(watched == nil, "the subject's reference to the subscriber was dropped")
    }

    @Test func disposingTheLoneSubscriberReleasesItsObserver() {
        let subject = PublishSubject<Int>()
        weak var watched: Canary?
        let subscription: any Disposable
        do {
            let canary = Canary()
            watched = canary
            subscription = subject.asObservable().subscribe(onNext: { _ in canary.touch() })
        }
        subject.onNext(1)
        subscription.dispose()
        #expect(watched == nil)
    }

    @Test func aDroppedSubjectReleasesItsSubscriber() {
        // Neither the subject nor the subscription is kept: only the
        // subject's own reference could keep the observer alive.
        weak var watchedCanary: Canary?
        weak var watchedSubject: PublishSubject<Int>?
        do {
            let subject = PublishSubject<Int>()
            let canary = Canary()
            watchedSubject = subject
            watchedCanary = canary
            _ = subject.asObservable().subscribe(onNext: { _ in canary.touch() })
            subject.onNext(1)
        }
        #expect(watchedSubject == nil)
        #expect(watchedCanary == nil)
    }

    @Test(arguments: [21, 22] as [UInt64])
    func subscribersJoiningAndLeavingDuringConcurrentSendsSeeConsecutiveValues(seed: UInt64) {
        // One subscriber stays throughout; others join and leave while two
        // threads send, so the subscriber list keeps changing under load. The
        // subject serializes everything; the permanent subscriber sees every
        // value once, each sender's in order; a transient one sees, per
        // sender, consecutive values (all those sent while it was there),
        // including the marker its churner sent just after subscribing.
        // Threads of their own, not `concurrentPerform` (one per core): the
        // senders keep sending until the churners are done.
        let senders = 2
        let churners = 2
        let rounds = 50
        let sources = senders + churners  // a churner sends its markers as source `senders + churner`
        let stride = 1 << 32  // value = source * stride + index
        let detector = OverlapDetector()
        let permanent = StateLock<[[Int]]>(Array(repeating: [], count: sources))
        let sentCounts = StateLock<[Int]>(Array(repeating: rounds, count: sources))
        let transientRuns = Log<(churner: Int, round: Int, seen: [[Int]])>()
        let churnersDone = AtomicWord(0)
        let stayLengths: [[Int]] = (0..<churners).map { churner in
            var random = SplitMix64(seed: seed &+ UInt64(churner))
            return (0..<rounds).map { _ in Int.random(in: 1...30, using: &random) }
        }
        let subject = PublishSubject<Int>()
        let subscription = subject.asObservable().subscribe(onNext: { value in
            detector.enter()
            permanent.withLock { $0[value / stride].append(value % stride) }
            detector.leave()
        })
        let delivered: @Sendable (Int) -> Int = { source in permanent.withLock { $0[source].count } }

        let threads = DispatchGroup()
        for sender in 0..<senders {
            threads.enter()
            Thread.detachNewThread {
                var index = 0
                while Int(churnersDone.load()) < churners {
                    subject.onNext(sender * stride + index)
                    index += 1
                    // Two senders outrun one deliverer: keep the backlog short,
                    // so a churner's marker gets through.
                    while index - delivered(sender) > 64 { sched_yield() }
                }
                sentCounts.withLock { $0[sender] = index }
                threads.leave()
            }
        }
        for churner in 0..<churners {
            threads.enter()
            Thread.detachNewThread {
                let source = senders + churner
                for (round, stay) in stayLengths[churner].enumerated() {
                    let seen = StateLock<[[Int]]>(Array(repeating: [], count: sources))
                    let transient = subject.asObservable().subscribe(onNext: { value in
                        detector.enter()
                        seen.withLock { $0[value / stride].append(value % stride) }
                        detector.leave()
                    })
                    subject.onNext(source * stride + round)
                    // Stay until the marker is through, then about `stay` values more.
                    while delivered(source) <= round { sched_yield() }
                    let start = delivered(0)
                    while delivered(0) < start + stay { sched_yield() }
                    transient.dispose()
                    transientRuns.append((churner, round, seen.withLock { $0 }))
                }
                churnersDone.add(1)
                threads.leave()
            }
        }
        threads.wait()
        subscription.dispose()

        #expect(detector.overlaps == 0, "seed \(seed): deliveries overlapped")
        let sent = sentCounts.withLock { $0 }
        for (source, values) in permanent.withLock({ $0 }).enumerated() {
            #expect(values == Array(0..<sent[source]), "seed \(seed), source \(source): \(values.count) of \(sent[source]) values, out of order or missing")
        }
        let runs = transientRuns.entries
        #expect(runs.count == churners * rounds, "seed \(seed)")
        for run in runs {
            #expect(run.seen[senders + run.churner].contains(run.round), "seed \(seed): churner \(run.churner) missed its marker \(run.round)")
            for values in run.seen where !values.isEmpty {
                #expect(values == Array(values[0]..<(values[0] + values.count)), "seed \(seed): a gap or a repeat")
            }
        }
    }
}
