import CarouselJSON
import Foundation
import Logging
import Synchronization

/// A swift-log handler writing one JSON object per entry on stderr:
/// `time` (RFC 3339, UTC, ms), `level`, `message`, then the metadata as
/// members (`requestId`, `method`, `route`, `path`, `status`,
/// `durationMs`, `client`, `bytes` for a request) — what `serve
/// --log-format json` prints, for a log collector to parse.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void
    private static let output = Mutex(())

    /// Writes each entry, a line, with `write` (by default on stderr).
    public init(label: String, write: @escaping @Sendable (String) -> Void = JSONLogHandler.standardError) {
        self.label = label
        self.write = write
    }

    public static func standardError(_ line: String) {
        output.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { $1 } }
        var line = "{\"time\":\(StoreJSON.quoted(Self.timestamp(Date()))),\"level\":\(StoreJSON.quoted(event.level.rawValue))"
        // Numbers the request entry holds go out as JSON numbers.
        let numeric: Set<String> = ["status", "durationMs", "bytes"]
        if merged["method"] == nil {
            line += ",\"message\":\(StoreJSON.quoted(event.message.description))"
        }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where !key.hasPrefix("hb.") {
            let text = "\(value)"
            let json = numeric.contains(key) && Double(text) != nil ? text : StoreJSON.quoted(text)
            line += ",\(StoreJSON.quoted(key)):\(json)"
        }
        line += "}\n"
        write(line)
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
