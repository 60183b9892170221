import Foundation

/// A bounded first-in first-out hand-over of batches from one producing
/// thread to one consuming thread, ending with the producer's outcome.
///
/// At most `capacity` full batches wait; a producer that gets ahead blocks,
/// so memory stays the same whatever the input's size. Consumed batches
/// come back through ``recycle(_:)`` for the producer to refill, so that
/// steady state allocates nothing.
final class BatchQueue<Batch: Sendable>: @unchecked Sendable {
    // Every stored property below is read and written only with `condition`
    // locked.
    private let condition = NSCondition()
    private let capacity: Int
    private var full: [Batch] = []
    private var spare: [Batch] = []
    /// Set once the producer is done: nil for the end of the input, or the
    /// error that stopped it.
    private var end: Result<Void, ImportFileError>?
    private var isCancelled = false
    private var producerExited = false

    init(capacity: Int) {
        precondition(capacity > 0, "a queue holds at least one batch")
        self.capacity = capacity
    }

    // MARK: Producer side

    /// A consumed batch to refill, if one came back.
    func reusable() -> Batch? {
        locked { spare.popLast() }
    }

    /// Queues `batch`, waiting while the queue is full. False when the
    /// consumer has cancelled: the producer should stop.
    func put(_ batch: Batch) -> Bool {
        locked {
            while full.count == capacity && !isCancelled { condition.wait() }
            guard !isCancelled else { return false }
            full.append(batch)
            condition.broadcast()
            return true
        }
    }

    /// Marks the end of the input, or the error that cut it short; the
    /// consumer sees it after the batches already queued.
    func finish(_ outcome: Result<Void, ImportFileError>) {
        locked {
            end = outcome
            condition.broadcast()
        }
    }

    /// Called by the producing thread as its very last step.
    func producerDidExit() {
        locked {
            producerExited = true
            condition.broadcast()
        }
    }

    // MARK: Consumer side

    /// The next batch, waiting for one; nil at the end of the input. Throws
    /// the producer's error once the batches before it are consumed.
    func take() throws(ImportFileError) -> Batch? {
        let next: Result<Batch?, ImportFileError> = locked {
            while full.isEmpty && end == nil { condition.wait() }
            if !full.isEmpty {
                condition.broadcast()
                return .success(full.removeFirst())
            }
            return end!.map { nil }
        }
        return try next.get()
    }

    /// Gives a consumed batch back for refilling.
    func recycle(_ batch: Batch) {
        locked { spare.append(batch) }
    }

    /// Tells the producer to stop at its next ``put(_:)``.
    func cancel() {
        locked {
            isCancelled = true
            full.removeAll()
            condition.broadcast()
        }
    }

    /// Waits until the producing thread has called ``producerDidExit()``.
    func waitForProducer() {
        locked {
            while !producerExited { condition.wait() }
        }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}
