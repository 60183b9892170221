import Foundation

/// Reads, validates and stages an import's rows on a second thread while
/// the calling thread writes them to SQLite (the import benchmark's target, BENCHMARKS.md): reading and checking
/// the GeoNames file is over a third of the import's CPU time, and runs
/// entirely alongside the SQLite work on a second core.
///
/// Rows arrive in ``RowBatch``es, in file order; a bounded number wait, so
/// memory does not grow with the file. The reading thread never outlives
/// ``read(_:shape:each:)``: when the consumer throws, the reader is stopped
/// and joined before the error propagates.
enum RowPipeline {
    /// How rows are handed over: `batchRows` per batch, at most
    /// `queuedBatches` waiting.
    struct Shape: Sendable {
        var batchRows: Int
        var queuedBatches: Int

        /// Batches large enough that the hand-over (a lock and a wake-up per
        /// batch) is lost in the noise, small enough to stay in L2 (~100 KB
        /// of text for the GeoNames rows); room for the reader to run ahead
        /// through a slow stretch of writing.
        static let standard = Shape(batchRows: 1024, queuedBatches: 4)
    }

    /// Calls `each` with every batch of `reader`'s rows, in order, on the
    /// calling thread; rethrows the reader's ``ImportFileError`` after the
    /// batches before it.
    static func read<Reader: StoreRowReader>(
        _ reader: Reader, shape: Shape = .standard, each: (RowBatch) throws -> Void
    ) throws {
        let batchRows = shape.batchRows
        precondition(batchRows > 0, "a batch holds at least one row")
        let queue = BatchQueue<RowBatch>(capacity: shape.queuedBatches)
        // The reader belongs to the reading thread from here until
        // `waitForProducer()` returns; this thread does not touch it.
        var reader = reader
        nonisolated(unsafe) let nextRow = { () throws(ImportFileError) -> ImportRow? in try reader.next() }
        let thread = Thread {
            defer { queue.producerDidExit() }
            produce(nextRow, batchRows: batchRows, into: queue)
        }
        thread.name = "catalog.import-reader"
        thread.start()
        defer { queue.waitForProducer() }

        do {
            while let batch = try queue.take() {
                try each(batch)
                queue.recycle(consume batch)
            }
        } catch {
            queue.cancel()
            throw error
        }
    }

    /// The reading thread: fills batches until the end of the input, an
    /// error, or the consumer cancelling.
    private static func produce(
        _ nextRow: () throws(ImportFileError) -> ImportRow?, batchRows: Int, into queue: BatchQueue<RowBatch>
    ) {
        func emptyBatch() -> RowBatch {
            var batch = queue.reusable() ?? RowBatch()
            batch.removeAll()
            return batch
        }
        var batch = emptyBatch()
        let outcome: Result<Void, ImportFileError>
        do {
            while let row = try nextRow() {
                batch.append(row)
                if batch.count == batchRows {
                    guard queue.put(batch) else { return }
                    batch = emptyBatch()
                }
            }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        // Every row read comes out, even before an error: the consumer sees
        // what a single thread reading the file would have.
        if batch.count > 0 {
            guard queue.put(batch) else { return }
        }
        queue.finish(outcome)
    }
}
