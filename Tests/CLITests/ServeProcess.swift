import Foundation
import TestSupport

/// `carousel serve` as a child process of a test, its stdout and stderr in
/// `log`, its environment this process's with `environment` laid over it.
struct ServeProcess {
    let process: Process
    let log: URL

    init(_ arguments: [String], environment: [String: String] = [:], log: URL) throws {
        process = Process()
        process.executableURL = CarouselProcess.executable
        process.arguments = ["serve"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardError = handle
        process.standardOutput = handle
        self.log = log
        try process.run()
    }

    /// What it logged so far.
    var text: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Waits until it says it serves (bounded: 30 s); its port, nil if it did not.
    @discardableResult
    func waitUntilServing() -> Int? {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let range = text.range(of: #"on https?://[^:]+:(\d+)/"#, options: .regularExpression),
                let port = Int(text[range].split(separator: ":").last?.dropLast() ?? "")
            {
                return port
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return nil
    }
}
