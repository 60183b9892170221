import Foundation

/// Where an `--output` goes: the path with its symbolic links followed (a
/// link is written through, never replaced), and whether it is a stream (an
/// existing FIFO or character device, written in place) or a regular file
/// (new or existing, replaced whole). Anything else is refused.
struct OutputPath {
    /// The path to write: `--output` with its links followed.
    let path: String
    /// A FIFO or a character device: written in place, as a stream.
    let isStream: Bool

    /// Links deeper than this are a loop (Linux's own limit, `MAXSYMLINKS`).
    static let maxLinks = 40

    init(_ output: String) throws {
        var path = output
        var links = 0
        var status = stat()
        // Follow the links one by one, so that a link to a file not yet
        // there resolves to where it will be created.
        while lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            links += 1
            guard links <= Self.maxLinks, let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else {
                throw CLIError("cannot write \(output): too many levels of symbolic links", status: .io)
            }
            path = target.hasPrefix("/") ? target : ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
        }
        guard stat(path, &status) == 0 else {
            self.path = path
            isStream = false
            return
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            isStream = false
        case S_IFIFO, S_IFCHR:
            isStream = true
        case S_IFDIR:
            throw CLIError("cannot write \(output): it is a folder; give a file path")
        default:
            throw CLIError("cannot write \(output): it is not a regular file, a FIFO or a character device")
        }
        self.path = path
    }

    /// Writes `output` with `write`: a FIFO or a device in place, as a
    /// stream (never replaced by a regular file); a regular file beside the
    /// target (a symbolic link's target: the link stays), then renamed over
    /// it, so that a reader never sees half a file and a failure leaves no
    /// file behind.
    static func write(_ output: String, _ write: (StandardOutput) async throws -> Void) async throws {
        let destination = try OutputPath(output)
        if destination.isStream {
            let stream = try StandardOutput.file(atPath: destination.path, creating: false)
            try await write(stream)
            try stream.close()
            return
        }
        let target = URL(fileURLWithPath: destination.path)
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        let file = try StandardOutput.file(atPath: partial.path)
        do {
            try await write(file)
            try file.close()
            if rename(partial.path, target.path) != 0 {
                throw CLIError("cannot write \(output): \(String(cString: strerror(errno)))", status: .io)
            }
        } catch {
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
    }

    /// Writes an archive (MBTiles, PMTiles) that `write` builds at the path
    /// it is given, beside `output`, then renames it over `output`: a
    /// reader never sees half an archive, and a failure leaves nothing
    /// under the output's name. A FIFO or device is refused (an archive is
    /// written in several passes).
    static func writeArchive<T>(_ output: String, _ write: (String) async throws -> T) async throws -> T {
        let destination = try OutputPath(output)
        guard !destination.isStream else {
            throw CLIError("cannot write \(output): an archive must be a regular file, not a FIFO or device")
        }
        let target = URL(fileURLWithPath: destination.path)
        let partial = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).partial-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: partial)
        do {
            let result = try await write(partial.path)
            if rename(partial.path, target.path) != 0 {
                throw CLIError("cannot write \(output): \(String(cString: strerror(errno)))", status: .io)
            }
            return result
        } catch {
            try? FileManager.default.removeItem(at: partial)
            try? FileManager.default.removeItem(atPath: partial.path + ".data")
            throw error
        }
    }
}
