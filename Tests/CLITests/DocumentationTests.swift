import Foundation
import TestSupport
import Testing

/// The README and docs/cli.md show real output; these tests keep it real.
///
/// Each fenced block with no language whose first line starts with `$ ` is a
/// shell session: every `$ ` line is run with bash from the package root,
/// with the built `carousel` first on the PATH, and what it prints (standard
/// output and error together) must be the lines below it, byte for byte.
/// The blocks of one page run in order in one session, so a later block sees
/// the lists an earlier one imported. `export NAME=VALUE` lines set the
/// session's environment. A path under `/tmp/` is read as a path in the
/// session's own temporary folder, in the commands and in the output, so the
/// page can say `/tmp/tour.sqlite` and the test never touches the real /tmp.
///
/// `UPDATE_DOCUMENTED_OUTPUT=1 swift test --filter DocumentationTests`
/// writes what the binary printed back into the pages instead of comparing:
/// review the diff before committing it.
@Suite("Documented output", .serialized)
struct DocumentationTests {
    @Test("every command on the page prints what the page shows", arguments: ["README.md", "docs/cli.md"])
    func pageShowsRealOutput(page: String) throws {
        let file = Paths.packageRoot.appendingPathComponent(page)
        let text = try String(contentsOf: file, encoding: .utf8)
        let folder = try TemporaryDirectory("carousel-docs")
        var session = ShellSession(folder: folder.url)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var sessions = 0
        var index = 0
        while index < lines.count {
            guard lines[index] == "```", index + 1 < lines.count, lines[index + 1].hasPrefix("$ ") else {
                index += 1
                continue
            }
            let start = index + 1
            guard let end = lines[start...].firstIndex(of: "```") else {
                Issue.record("\(page): the block at line \(index + 1) is not closed")
                return
            }
            let block = Array(lines[start..<end])
            let actual = try session.run(block)
            if ProcessInfo.processInfo.environment["UPDATE_DOCUMENTED_OUTPUT"] == "1" {
                lines.replaceSubrange(start..<end, with: actual)
                index = start + actual.count + 1
            } else {
                for (offset, pair) in zip(block, actual).enumerated() where pair.0 != pair.1 {
                    Issue.record("\(page):\(start + offset + 1): the page shows\n  \(pair.0)\nbut the binary printed\n  \(pair.1)")
                    break
                }
                #expect(block.count == actual.count, "\(page):\(start + 1): the block has \(block.count) lines, the commands printed \(actual.count)")
                index = end + 1
            }
            sessions += 1
        }
        #expect(sessions > 0, "\(page) has no shell session to check")
        if ProcessInfo.processInfo.environment["UPDATE_DOCUMENTED_OUTPUT"] == "1" {
            try Data(lines.joined(separator: "\n").utf8).write(to: file)
        }
    }
}

/// The commands of one page, run in order.
private struct ShellSession {
    let folder: URL
    var environment: [String: String] = [:]

    init(folder: URL) { self.folder = folder }

    /// Runs the block's `$ ` lines and returns the block as it should read:
    /// each command followed by what it printed.
    mutating func run(_ block: [String]) throws -> [String] {
        var transcript: [String] = []
        for line in block where line.hasPrefix("$ ") {
            let command = String(line.dropFirst(2))
            transcript.append(line)
            if command.hasPrefix("export "), let equals = command.firstIndex(of: "=") {
                let name = String(command[command.index(command.startIndex, offsetBy: 7)..<equals])
                environment[name] = toSession(String(command[command.index(after: equals)...]))
                continue
            }
            transcript += try execute(toSession(command))
        }
        return transcript
    }

    private func toSession(_ text: String) -> String {
        text.replacingOccurrences(of: "/tmp/", with: folder.path + "/")
    }

    private func fromSession(_ text: String) -> String {
        text.replacingOccurrences(of: folder.path + "/", with: "/tmp/")
    }

    private func execute(_ command: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        // stderr joins stdout in one pipe, so the two keep the order in
        // which the command wrote them, as in a terminal.
        process.arguments = ["-c", "exec 2>&1; " + command]
        process.currentDirectoryURL = Paths.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["CAROUSEL_DB"] = nil
        env["PATH"] = Paths.productsDirectory.path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env.merge(environment) { _, new in new }
        process.environment = env
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = fromSession(String(decoding: data, as: UTF8.self))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
