import Foundation

/// Reads, validates and stages an import's rows on a second thread while
/// the calling thread writes them to SQLite (SPEC §10: the machine has two
/// cores; parsing is a third of a single-threaded import and overlaps the
/// SQLite work entirely).
///
/// Rows arrive in ``RowBatch``es of `batchRows`, in file order; at most
/// `queuedBatches` wait, so memory does not grow with the file. The reading
/// thread never outlives ``read(_:batchRows:queuedBatches:each:)``: when the
/// consumer throws, the reader is stopped and joined before the error
/// propagates.
enum RowPipeline {
    /// Large enough that the hand-over (a lock and a wake-up per batch) is
    /// lost in the noise, small enough that a batch stays in L2 (~100 KB of
    /// text for the GeoNames rows).
    static let defaultBatchRows = 1024
    /// Room for the reader to run ahead through a slow stretch of writing.
    static let defaultQueuedBatches = 4

    /// Calls `each` with every batch of `reader`'s rows, in order, on the
    /// calling thread; rethrows the reader's ``ImportFileError`` after the
    /// batches before it.
    static func read<Reader: StoreRowReader>(
        _ reader: Reader,
        batchRows: Int = defaultBatchRows,
        queuedBatches: Int = defaultQueuedBatches,
        each: (RowBatch) throws -> Void
    ) throws {
        precondition(batchRows > 0, "a batch holds at least one row")
        let queue = BatchQueue<RowBatch>(capacity: queuedBatches)
        // The reader belongs to the reading thread from here until
        // `waitForProducer()` returns; this thread does not touch it.
        var reader = reader
        nonisolated(unsafe) let nextRow = { () throws(ImportFileError) -> ImportRow? in try reader.next() }
        let thread = Thread {
            defer { queue.producerDidExit() }
            produce(nextRow, batchRows: batchRows, into: queue)
        }
        thread.name = "carousel import reader"
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
        do {
            while let row = try nextRow() {
                batch.append(row)
                if batch.count == batchRows {
                    guard queue.put(batch) else { return }
                    batch = emptyBatch()
                }
            }
            if batch.count > 0 {
                guard queue.put(batch) else { return }
            }
            queue.finish(.success(()))
        } catch {
            queue.finish(.failure(error))
        }
    }
}
