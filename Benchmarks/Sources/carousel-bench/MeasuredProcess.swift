import Foundation

/// What one child process cost: wall time from spawn to reap, and its peak
/// resident memory.
struct ProcessMeasurement {
    var wallSeconds: Double
    /// `ru_maxrss` from `wait4`: the child's own peak RSS (not its children's).
    var peakRSSBytes: Int
}

/// Runs a program as a child process and measures it: the benchmark's peers
/// (`sqlite3`) and our CLI are timed the same way, from `posix_spawn` to
/// `wait4`, so startup, dynamic linking and exit count for both.
struct MeasuredProcess {
    /// The program: a path, or a name looked up in `PATH`.
    var executable: String
    var arguments: [String]
    /// Where the child's stdout goes; `nil` discards it (`/dev/null`), so
    /// terminal output never slows a run down.
    var stdoutPath: String?
    /// Where the child's stderr goes; shown in the error if the child fails.
    var stderrPath: String

    /// Spawns, waits, and measures; throws if the child cannot start or
    /// exits non-zero.
    func run() throws -> ProcessMeasurement {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let writeFlags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", writeFlags, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, writeFlags, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid: pid_t = 0
        let start = Stopwatch.nanoseconds()
        let spawnStatus = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawnStatus == 0 else {
            throw BenchError("cannot start \(executable): \(String(cString: strerror(spawnStatus)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else {
                throw BenchError("waiting for \(executable): \(String(cString: strerror(errno)))")
            }
        }
        let wall = Double(Stopwatch.nanoseconds() - start) / 1e9
        // WIFEXITED / WEXITSTATUS, which Swift does not import (macros).
        let exited = status & 0x7F == 0
        let exitCode = (status >> 8) & 0xFF
        guard exited, exitCode == 0 else {
            let how = exited ? "exited with status \(exitCode)" : "was killed by signal \(status & 0x7F)"
            throw BenchError("""
                \(([executable] + arguments).joined(separator: " ")) \(how): \(Self.tail(of: stderrPath))
                """)
        }
        #if os(Linux)
        let rssUnit = 1024  // Linux reports ru_maxrss in KiB,
        #else
        let rssUnit = 1  // macOS in bytes.
        #endif
        return ProcessMeasurement(wallSeconds: wall, peakRSSBytes: Int(usage.ru_maxrss) * rssUnit)
    }

    /// The last lines of a child's stderr, for an error message.
    private static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").suffix(3)
        return lines.isEmpty ? "(nothing on stderr)" : lines.joined(separator: " / ")
    }
}
