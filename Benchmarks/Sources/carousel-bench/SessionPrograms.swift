import Foundation

/// The sessions ramp's two C programs, built with `cc` (else the clang that
/// Swift's toolchain carries) into the workspace.
///
/// - ``SessionLoadProgram``, `Benchmarks/scripts/session-load.c`: the
///   ramp's main client, one epoll thread: 6.5–8.5 µs of CPU a frame
///   from 64 sessions up (each step prints its own), so that the
///   ramp measures the server rather than its client. Against the floor
///   it holds 1,408–1,536 sessions where the NIO client held 640.
/// - ``SessionFloor``, `Benchmarks/scripts/session-floor.c`: the floor, a
///   server that answers every frame with fixed camera and marker lines and
///   does nothing else. What it holds beside the same client is what this
///   machine allows any server of sessions; the ramp reports ours as a
///   share of it.
enum SessionPrograms {
    /// Builds `source` (a file of `Benchmarks/scripts`) into `binary`.
    static func build(_ source: URL, into binary: URL) throws {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        let found = ["cc", "clang"].lazy.flatMap { name in folders.map { "\($0)/\(name)" } }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else { throw BenchError("the sessions ramp's programs are C: no cc or clang in PATH") }
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: found)
        compiler.arguments = ["-O2", "-pthread", "-o", binary.path, source.path]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw BenchError("\(found) could not build \(source.lastPathComponent)") }
    }
}

/// The floor server (`session-floor.c`), running as a child.
final class SessionFloor {
    let process = Process()
    let port: Int
    var pid: Int32 { process.processIdentifier }

    /// Builds the floor from `source` into `binary` and starts it.
    init(source: URL, binary: URL) throws {
        try SessionPrograms.build(source, into: binary)
        process.executableURL = binary
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Its first line, once it listens: "listening PORT".
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        guard line.hasPrefix("listening "), let port = Int(line.dropFirst("listening ".count).prefix { $0.isNumber }) else {
            process.terminate()
            throw BenchError("session-floor did not start: \(line.prefix(80))")
        }
        self.port = port
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// The ramp's main client (`session-load.c`): each step a run of the
/// program, which prints its frames and p99; the server's CPU is read
/// around it.
struct SessionLoadProgram {
    let binary: URL
    let port: Int
    let path: String
    let serverPid: Int32?

    /// Builds the client from `source` into `binary`.
    static func build(source: URL, binary: URL) throws {
        try SessionPrograms.build(source, into: binary)
    }

    /// `sessions` sessions, connected and loaded, then `seconds` of frames.
    func step(sessions: Int, seconds: Double) throws -> SessionRamp.Step {
        let process = Process()
        process.executableURL = binary
        process.arguments = [String(port), path, String(sessions), String(seconds)]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let cpuBefore = serverPid.flatMap(SessionRamp.cpuSeconds)
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let cpuAfter = serverPid.flatMap(SessionRamp.cpuSeconds)
        // "frames N unanswered U p99 MS client US" (MS is "inf" when too
        // few answered; US the client's CPU a frame).
        let words = text.split(whereSeparator: \.isWhitespace)
        guard process.terminationStatus == 0, words.count == 8, words[0] == "frames", let frames = Int(words[1]),
            let p99 = words[5] == "inf" ? Double.infinity : Double(words[5]), let client = Double(words[7])
        else {
            throw BenchError("session-load failed at \(sessions) sessions: \((problem + text).prefix(200))")
        }
        return SessionRamp.Step(
            sessions: sessions, frames: frames, p99Milliseconds: p99,
            serverMicrosecondsPerFrame: SessionRamp.microsecondsPerFrame(before: cpuBefore, after: cpuAfter, frames: frames),
            clientMicrosecondsPerFrame: client)
    }
}
