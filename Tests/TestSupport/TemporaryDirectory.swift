import Foundation

/// A fresh directory under the system's temporary folder, removed when the
/// value is deinitialized.
public final class TemporaryDirectory: @unchecked Sendable {
    public let url: URL

    public init(_ prefix: String = "carousel-test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A path inside the directory (not created).
    public func path(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Writes `contents` to `name` inside the directory and returns its URL.
    @discardableResult
    public func write(_ name: String, _ contents: String) throws -> URL {
        let file = path(name)
        try Data(contents.utf8).write(to: file)
        return file
    }

    /// Writes raw bytes (for invalid UTF-8, BOMs, CRLF…) and returns the URL.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> URL {
        let file = path(name)
        try Data(bytes).write(to: file)
        return file
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
