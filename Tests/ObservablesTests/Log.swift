import Locks
import Observables

/// A thread-safe list to collect what observers and actions saw.
final class Log<Entry: Sendable>: Sendable {
    private let storage = StateLock<[Entry]>([])

    func append(_ entry: Entry) {
        storage.withLock { $0.append(entry) }
    }

    var entries: [Entry] {
        storage.withLock { $0 }
    }
}
