import Foundation

/// What one child process cost: wall time from spawn to reap, and its peak
/// resident memory when asked for.
struct ProcessMeasurement {
    var wallSeconds: Double
    /// The program's own peak RSS, or nil when not measured.
    var peakRSSBytes: Int?
}

/// Runs a program as a child process and measures it: the benchmark's peers
/// (`sqlite3`) and our CLI are timed the same way, from `posix_spawn` to
/// `waitpid`, so startup, dynamic linking and exit count for both.
struct MeasuredProcess {
    /// The program: a path, or a name looked up in `PATH`.
    var executable: String
    var arguments: [String]
    /// Where the child's stdout goes; `nil` discards it (`/dev/null`), so
    /// terminal output never slows a run down.
    var stdoutPath: String?
    /// Where the child's stderr goes; shown in the error if the child fails.
    var stderrPath: String
    /// Whether to measure the program's peak RSS, through GNU time.
    ///
    /// Not `wait4`'s own `ru_maxrss`: `posix_spawn` vforks, and Linux carries
    /// the address space's high-water mark over `exec`, so a child spawned
    /// from this process reports at least this process's RSS (21 MiB here,
    /// for a 6 MiB sqlite3). GNU time forks from its own small image and
    /// reports its child's `ru_maxrss`, the program's alone. Its fork adds
    /// well under a millisecond of wall time, alike for every program
    /// measured this way.
    var measuresPeakMemory = false

    /// GNU time, which `measuresPeakMemory` needs (Debian/Ubuntu package `time`).
    static let gnuTime = "/usr/bin/time"

    /// Spawns, waits, and measures; throws if the child cannot start or
    /// exits non-zero.
    func run() throws -> ProcessMeasurement {
        guard measuresPeakMemory else {
            return ProcessMeasurement(wallSeconds: try spawn([executable] + arguments))
        }
        guard FileManager.default.isExecutableFile(atPath: Self.gnuTime) else {
            throw BenchError("peak memory is measured with GNU time: install it (apt-get install time)")
        }
        let output = stderrPath + ".maxrss"
        let wallSeconds = try spawn([Self.gnuTime, "-f", "%M", "-o", output, executable] + arguments)
        let kibibytes = try String(contentsOfFile: output, encoding: .utf8)
            .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard let kibibytes else { throw BenchError("GNU time wrote no peak RSS to \(output)") }
        return ProcessMeasurement(wallSeconds: wallSeconds, peakRSSBytes: kibibytes * 1024)
    }

    /// Runs `command` to completion and returns its wall time in seconds.
    private func spawn(_ command: [String]) throws -> Double {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let writeFlags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", writeFlags, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, writeFlags, 0o644)

        let argv: [UnsafeMutablePointer<CChar>?] = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }

        var pid: pid_t = 0
        let start = Stopwatch.nanoseconds()
        let spawnStatus = posix_spawnp(&pid, command[0], &actions, nil, argv, environ)
        guard spawnStatus == 0 else {
            throw BenchError("cannot start \(command[0]): \(String(cString: strerror(spawnStatus)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else {
                throw BenchError("waiting for \(command[0]): \(String(cString: strerror(errno)))")
            }
        }
        let wallSeconds = Double(Stopwatch.nanoseconds() - start) / 1e9
        // WIFEXITED / WEXITSTATUS, which Swift does not import (macros).
        let exited = status & 0x7F == 0
        let exitCode = (status >> 8) & 0xFF
        guard exited, exitCode == 0 else {
            let how = exited ? "exited with status \(exitCode)" : "was killed by signal \(status & 0x7F)"
            throw BenchError("\(command.joined(separator: " ")) \(how): \(Self.tail(of: stderrPath))")
        }
        return wallSeconds
    }

    /// The last lines of a child's stderr, for an error message.
    private static func tail(of path: String) -> String {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").suffix(3)
        return lines.isEmpty ? "(nothing on stderr)" : lines.joined(separator: " / ")
    }
}
