import Foundation
import StoreCatalog

/// How the scale benchmark measures "the first page of `stores`": through
/// the CLI when it pages (`carousel stores --limit 20`, a fresh process),
/// else through the library — a freshly opened `Catalog` reading positions
/// 0 ..< 20, the query such a page would run — since printing a whole
/// list of 10⁷ stores is no page.
enum FirstPage {
    case command(carousel: String, workspace: Workspace)
    case library

    static let size = 20

    /// `.command` when `carousel stores --help` lists `--limit`.
    static func mode(carousel: String, workspace: Workspace) throws -> FirstPage {
        let help = workspace.path("stores-help.txt")
        _ = try MeasuredProcess(
            executable: carousel, arguments: ["stores", "--help"], stdoutPath: help.path,
            stderrPath: workspace.path("stores-help.stderr").path
        ).run()
        let text = try String(contentsOf: help, encoding: .utf8)
        return text.contains("--limit") ? .command(carousel: carousel, workspace: workspace) : .library
    }

    var label: String {
        switch self {
        case .command: "(`carousel stores --limit 20`, cold)"
        case .library: "(library, fresh `Catalog`)"
        }
    }

    var description: String {
        switch self {
        case .command:
            "`carousel stores --list places --limit 20 --db CATALOG`, a new process each, wall from spawn to exit"
        case .library:
            "this CLI has no `stores --limit`, so the library's query: a freshly opened `Catalog` (connection, "
                + "schema check) reading positions 0..<20 with `store(list:at:)`, in process"
        }
    }

    /// One cold first page, in seconds; checks it starts with `expectedFirst`.
    func measure(database: URL, list: String, expectedFirst: String) throws -> Double {
        switch self {
        case let .command(carousel, workspace):
            let output = workspace.path("first-page.txt")
            let seconds = try MeasuredProcess(
                executable: carousel,
                arguments: ["stores", "--list", list, "--limit", String(Self.size), "--db", database.path],
                stdoutPath: output.path, stderrPath: workspace.path("first-page.stderr").path
            ).run().wallSeconds
            guard try String(contentsOf: output, encoding: .utf8).contains(expectedFirst) else {
                throw BenchError("carousel stores --limit \(Self.size) does not list \(expectedFirst) first")
            }
            return seconds
        case .library:
            let start = Stopwatch.nanoseconds()
            let catalog = try Catalog(path: database.path)
            let page = try (0..<Self.size).map { try catalog.store(list: list, at: $0) }
            let seconds = Double(Stopwatch.nanoseconds() - start) / 1e9
            guard page.first?.id == expectedFirst else {
                throw BenchError("the first page starts with \(page.first?.id ?? "nothing"), not \(expectedFirst)")
            }
            return seconds
        }
    }
}
