import CatalogServing
import Synchronization

/// Closes the sessions a token opened once that token is revoked: a
/// session is checked at its upgrade only, and a revoked reader kept its
/// live map for as long as it stayed connected.
///
/// One loop for the whole server, running while a session with a token is
/// open: every ``interval`` it verifies each distinct token of the open
/// sessions once (a revocation made by another process, `carousel tokens
/// revoke`, shows through the catalog), and closes the sessions of a token
/// no longer found with 1008 (policy violation, RFC 6455 §7.4.1). The cost
/// is one lookup per token per interval, however many sessions share it;
/// a lookup that fails (the catalog briefly unreachable) closes nothing.
final class SessionTokenWatch: Sendable {
    let reader: any ServingCatalog
    /// Within a second of a revocation, as the issue asked.
    static let interval = Duration.milliseconds(500)

    private struct Watched {
        var token: String
        var close: @Sendable () async -> Void
    }

    private struct State {
        var sessions: [Int: Watched] = [:]
        var next = 0
        var looping = false
    }

    private let state = Mutex(State())

    init(reader: any ServingCatalog) {
        self.reader = reader
    }

    /// Watches a session opened with `token`; `close` ends it. Returns the
    /// number to ``stopWatching(_:)`` with when the session ends.
    func watch(token: String, close: @escaping @Sendable () async -> Void) -> Int {
        let (number, startsLoop) = state.withLock { state in
            state.next += 1
            state.sessions[state.next] = Watched(token: token, close: close)
            defer { state.looping = true }
            return (state.next, !state.looping)
        }
        if startsLoop { Task { await loop() } }
        return number
    }

    func stopWatching(_ number: Int) {
        _ = state.withLock { $0.sessions.removeValue(forKey: number) }
    }

    private func loop() async {
        while true {
            try? await Task.sleep(for: Self.interval)
            let sessions = state.withLock { state -> [Int: Watched] in
                if state.sessions.isEmpty { state.looping = false }
                return state.sessions
            }
            if sessions.isEmpty { return }
            for token in Set(sessions.values.map(\.token)) {
                do {
                    guard try await reader.verifyToken(token) == nil else { continue }
                } catch {
                    continue  // unreachable now: closes nothing.
                }
                for (number, watched) in sessions where watched.token == token {
                    stopWatching(number)
                    await watched.close()
                }
            }
        }
    }
}
