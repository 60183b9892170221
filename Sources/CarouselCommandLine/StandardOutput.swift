import Foundation

/// Standard output (or an `--output` file) written through one buffer, so
/// that a 234,908-store listing streams in 64 KiB writes instead of one
/// system call per row, and its first rows reach a pipe at once.
///
/// A reader that goes away (`carousel stores … | head`) ends the command
/// quietly with success: what it asked for has been written.
final class StandardOutput: @unchecked Sendable {
    // @unchecked: the CLI writes from its main thread only.

    /// Standard output.
    static let shared = StandardOutput(descriptor: STDOUT_FILENO, name: "standard output")

    private let descriptor: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private let capacity = 1 << 16
    private var needsEarlyFlush = true

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        buffer.reserveCapacity(capacity)
    }

    /// A file created (or truncated) at `path` for writing; with `creating`
    /// false, an existing FIFO or device opened as it is.
    static func file(atPath path: String, creating: Bool = true) throws -> StandardOutput {
        let flags = creating ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_WRONLY | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw CLIError("cannot create \(path): \(reason)", status: errno == ENOENT ? .missingInput : .io)
        }
        return StandardOutput(descriptor: descriptor, name: path)
    }

    /// A broken pipe ends the process from `write`'s error (EPIPE), not by
    /// SIGPIPE, so buffered output to a file is never cut short by a signal.
    func ignoreBrokenPipe() {
        signal(SIGPIPE, SIG_IGN)
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: $0) }
    }

    func write(bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= capacity { flush() }
    }

    /// `text` and a line break.
    func line(_ text: String) {
        write(text)
        buffer.append(0x0A)
        if buffer.count >= capacity { flush() }
    }

    /// Writes out the first lines of a stream at once, so `| head` or a
    /// terminal sees them before the rest is read; later ones are buffered.
    func flushFirstLines() {
        if needsEarlyFlush {
            needsEarlyFlush = false
            flush()
        }
    }

    /// Writes everything buffered; a closed pipe ends the process (status 0).
    func flush() {
        // Anything `print` buffered goes first, in order (every stdio
        // stream: Swift 6 cannot name `stdout` itself). A failed write must
        // end the command with 74, not 0 (`lists > /dev/full`): stdio
        // reports it here (glibc: EOF and ENOSPC for 4,096 and 10,000
        // printed bytes to /dev/full alike).
        if fflush(nil) != 0 {
            let failure = errno
            if failure == EPIPE { exit(ExitStatus.success.rawValue) }
            buffer.removeAll(keepingCapacity: true)
            let reason = failure == 0 ? "a write failed" : String(cString: strerror(failure))
            Carousel.fail(ErrorReport(message: "cannot write to standard output: \(reason)", status: .io))
        }
        var written = 0
        while written < buffer.count {
            let result = buffer.withUnsafeBytes { bytes in
                Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            }
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(ExitStatus.success.rawValue) }
                let reason = String(cString: strerror(errno))
                buffer.removeAll(keepingCapacity: true)
                Carousel.fail(ErrorReport(message: "cannot write to \(name): \(reason)", status: .io))
            }
            written += result
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes a file (never standard output).
    func close() throws {
        flush()
        guard descriptor != STDOUT_FILENO else { return }
        if Foundation.close(descriptor) != 0 {
            throw CLIError("cannot write \(name): \(String(cString: strerror(errno)))", status: .io)
        }
    }
}
