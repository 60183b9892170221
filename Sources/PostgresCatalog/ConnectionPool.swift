import Locks
import Logging
import PostgresNIO

/// The catalog's connections to PostgreSQL: at most ``maxConnections`` at
/// once, idle ones kept for the next call.
///
/// Why not postgres-nio's `PostgresClient`: while the database is down it
/// holds each request up to its circuit breaker's 60 s, retrying the
/// connection in the background; a server's readiness check must say 503
/// at once, and a CLI command must fail in one line. Here a call that
/// cannot connect fails at once with the reason, and a connection that
/// broke (the database restarted) is dropped rather than kept, so the next
/// call connects anew.
final class ConnectionPool: Sendable {
    let maxConnections: Int
    private let connect: @Sendable () async throws -> PostgresConnection
    private let state = StateLock(State())

    private struct State {
        var idle: [PostgresConnection] = []
        /// Connections lent out, or being opened.
        var inUse = 0
        /// Calls waiting for a connection, first come first served.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    init(maxConnections: Int, connect: @escaping @Sendable () async throws -> PostgresConnection) {
        self.maxConnections = max(1, maxConnections)
        self.connect = connect
    }

    deinit {
        for connection in state.withLock({ $0.idle }) { Self.close(connection) }
    }

    /// Closes `connection` in the background, holding it until it is
    /// closed (a connection let go open is a programming error to
    /// postgres-nio).
    static func close(_ connection: PostgresConnection) {
        connection.close().whenComplete { _ in _ = connection }
    }

    /// Runs `body` on a connection of the pool; a connection it leaves
    /// broken is closed, not kept.
    func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        await takeTurn()
        var connection: PostgresConnection?
        defer { giveBack(connection) }
        connection = state.withLock { state in
            while let candidate = state.idle.popLast() {
                if !candidate.isClosed { return candidate }
            }
            return nil
        }
        if connection == nil { connection = try await connect() }
        return try await body(connection!)
    }

    /// Waits until fewer than `maxConnections` are in use, then counts one.
    private func takeTurn() async {
        let admitted = state.withLock { state -> Bool in
            guard state.inUse < maxConnections else { return false }
            state.inUse += 1
            return true
        }
        if admitted { return }
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                // Re-checked under the lock: a turn may have been given back.
                guard state.inUse < maxConnections else {
                    state.waiting.append(continuation)
                    return false
                }
                state.inUse += 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Keeps `connection` for the next call (unless it broke) and hands
    /// the turn to the first waiting call, if any.
    private func giveBack(_ connection: PostgresConnection?) {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let connection, !connection.isClosed { state.idle.append(connection) }
            guard !state.waiting.isEmpty else {
                state.inUse -= 1
                return nil
            }
            // The turn passes on: `inUse` stays.
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
