import Foundation

/// Runs the built `carousel` binary, as a user would, and captures what it
/// printed.
public struct CarouselProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String

        /// `stdout` split into lines, without the trailing empty one.
        public var lines: [String] {
            stdout.split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast(stdout.hasSuffix("\n") ? 1 : 0).map(String.init)
        }
    }

    /// The binary under test.
    public static var executable: URL {
        Paths.productsDirectory.appendingPathComponent("carousel")
    }

    /// Copies the binary under test to `destination`, to be run from there.
    ///
    /// Copied by cp(1), not FileManager: a copy written from the test
    /// process holds a writable descriptor to the new file while it is
    /// written, and a process another test spawns in that instant inherits
    /// it, so executing the copy failed with "Text file busy" (ETXTBSY) now
    /// and then on a loaded machine. cp's descriptor lives and dies in cp.
    public static func copyExecutable(to destination: URL) throws {
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = [executable.path, destination.path]
        try copy.run()
        copy.waitUntilExit()
        guard copy.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
    }

    /// Runs `carousel arguments…` with `environment` added to this process's
    /// own (minus `CAROUSEL_DB`, so a developer's setting never leaks in),
    /// in `directory` if given, and waits for it — at most `timeout` seconds,
    /// after which it is killed (status 9 by signal). With a `launcher`
    /// (a program and its arguments, such as `setpriv` dropping root), the
    /// launcher runs and is given the binary's path and `arguments`.
    public static func run(
        _ arguments: [String],
        executable: URL = CarouselProcess.executable,
        environment: [String: String] = [:],
        directory: URL? = nil,
        stdin: String? = nil,
        timeout: TimeInterval = 300,
        launcher: [String] = []
    ) throws -> Result {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [executable.path] + arguments
        } else {
            process.executableURL = executable
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["CAROUSEL_DB"] = nil
        env.merge(environment) { _, new in new }
        process.environment = env
        if let directory { process.currentDirectoryURL = directory }

        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()

        // Drain both pipes concurrently so a chatty child never blocks.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        // A command that should have stopped but serves or waits forever
        // (a test's mistake or the binary's) is killed at the deadline, so it
        // fails its test instead of hanging the whole run.
        let deadline = DispatchWorkItem { [process] in
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        deadline.cancel()
        process.waitUntilExit()
        // Closed here, not left to the handles' deinit: a run of the
        // suite otherwise held 1,334 pipe descriptors open at once, which
        // a PostgreSQL test server then inherited.
        // (`Process.run()` closed the write ends already.)
        try? out.fileHandleForReading.close()
        try? err.fileHandleForReading.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self)
        )
    }
}
