import Foundation

/// The sessions ramp: sessions double from `start` (then bisect) until the
/// p99 of frame-to-camera latency passes the bound, each step from one of
/// the ramp's clients (``SessionLoadProgram``, ``SessionLoad``; the
/// Python client, `sessions.py`, runs the same ramp itself).
enum SessionRamp {
    struct Step {
        var sessions: Int
        /// Frames sent.
        var frames: Int
        /// Frame-to-camera latency, a frame never answered counting as
        /// infinite.
        var p99Milliseconds: Double
        /// The server's CPU (user + system) over the step, per frame sent;
        /// nil without its pid.
        var serverMicrosecondsPerFrame: Double?
        /// The client's own, when it reports it (the C client).
        var clientMicrosecondsPerFrame: Double? = nil

        var line: String {
            var text = "step: \(sessions) sessions, \(frames) frames, p99 \(String(format: "%.1f", p99Milliseconds)) ms"
            if let cpu = serverMicrosecondsPerFrame { text += String(format: ", server CPU %.1f us a frame", cpu) }
            if let cpu = clientMicrosecondsPerFrame { text += String(format: ", client CPU %.1f us a frame", cpu) }
            return text
        }
    }

    /// Doubles the sessions from `start` (then bisects) until p99 passes
    /// `boundMilliseconds`, at most `max`; the most that met the bound
    /// (0 if none did) and every step.
    static func run(
        boundMilliseconds: Double = 50, start: Int, max: Int, step: (Int) throws -> Step
    ) rethrows -> (sessions: Int, steps: [Step]) {
        var good = 0
        var bad: Int?
        var count = Swift.max(1, Swift.min(start, max))
        var steps: [Step] = []
        for _ in 0..<16 {  // bounded: doubling, then bisecting
            let step = try step(count)
            steps.append(step)
            progress("server: " + step.line)
            if step.p99Milliseconds <= boundMilliseconds { good = count } else { bad = count }
            if let bad {
                if bad - good <= Swift.max(1, good / 8) { break }
                count = (good + bad) / 2
            } else {
                if count >= max { break }
                count = Swift.min(count * 2, max)
            }
        }
        return (good, steps)
    }

    /// The least and most of `figures`, in µs ("27.3–32.7 µs"); nil when
    /// there are none.
    static func microsecondsRange(_ figures: [Double]) -> String? {
        guard let least = figures.min(), let most = figures.max() else { return nil }
        return String(format: "%.1f–%.1f µs", least, most)
    }

    /// The server's CPU over a step, per frame sent; nil without both reads.
    static func microsecondsPerFrame(before: Double?, after: Double?, frames: Int) -> Double? {
        guard let before, let after, frames > 0 else { return nil }
        return (after - before) / Double(frames) * 1e6
    }

    /// A process's user + system CPU seconds so far, from /proc/PID/stat
    /// (fields 14 and 15, after the command's closing parenthesis).
    static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
