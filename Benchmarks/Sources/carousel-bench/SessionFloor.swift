import Foundation

/// The sessions ramp's floor: `Benchmarks/scripts/session-floor.c`, a C
/// epoll server that answers every frame with fixed camera and marker
/// lines and does nothing else, built with `cc` into the workspace and run
/// as a child. What it holds beside the same client is what this machine
/// allows any server of sessions; the ramp reports ours as a share of it.
final class SessionFloor {
    let process = Process()
    let port: Int
    var pid: Int32 { process.processIdentifier }

    /// Builds the floor from `source` into `binary` and starts it.
    init(source: URL, binary: URL) throws {
        let compiler = Process()
        compiler.executableURL = URL(fileURLWithPath: "/usr/bin/cc")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/cc") else {
            throw BenchError("the sessions ramp's floor is C: install a compiler (apt-get install gcc)")
        }
        compiler.arguments = ["-O2", "-pthread", "-o", binary.path, source.path]
        try compiler.run()
        compiler.waitUntilExit()
        guard compiler.terminationStatus == 0 else { throw BenchError("cc could not build \(source.lastPathComponent)") }

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
