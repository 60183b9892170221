import Foundation
import StoreCatalog

/// SPEC §10's fourth benchmark: `carousel focus --list places --offset X`
/// on the imported catalog, the whole process, cold: each run a new
/// process that opens the database, finds the focused store and prints it.
struct FocusBenchmark {
    var workspace: Workspace
    var runs: Int
    var seed: UInt64 = 0xF0C5
    /// The CLI's default layout (groupPagingCentered, 300-pt cards 12 apart):
    /// item `i` rests at `i · 312` (SPEC §4).
    static let page = 312.0

    func run(into report: inout Report) throws {
        let database = try workspace.catalog()
        let catalog = try Catalog(path: database.path)
        let count = try catalog.count(list: workspace.listName)
        var random = SplitMix64(seed: seed)
        let positions = (0..<runs).map { _ in Int.random(in: 0..<count, using: &random) }
        // Once, untimed: the answer must be the catalog's store at that position.
        try check(position: positions[0], database: database, catalog: catalog)
        var seconds: [Double] = []
        for (run, position) in positions.enumerated() {
            if run.isMultiple(of: 10) { progress("focus: run \(run + 1)/\(runs)") }
            seconds.append(try focus(at: position, database: database, stdout: nil).wallSeconds)
        }
        let median = Samples(seconds).median
        report.rows.append(ReportRow(
            "cold `carousel focus --offset X`: median (p99)",
            ours: "\(Format.seconds(median)) (p99 \(Format.seconds(Samples(seconds).p99)))",
            target: .atMost(0.030, "30 ms"), measured: median
        ))
        report.notes.append("""
            focus: \(runs) processes of `carousel focus --list \(workspace.listName) --offset X --db CATALOG` \
            (default layout) at random positions of the \(Format.count(count))-store list, \
            wall from spawn to exit; seed \(String(seed, radix: 16))
            """)
    }

    private func focus(at position: Int, database: URL, stdout: String?) throws -> ProcessMeasurement {
        // Off the rest point by less than half a page: still focuses `position`.
        let offset = Double(position) * Self.page + 100
        return try MeasuredProcess(
            executable: workspace.carousel,
            arguments: ["focus", "--list", workspace.listName, "--offset", String(offset), "--db", database.path, "--json"],
            stdoutPath: stdout,
            stderrPath: workspace.path("carousel-focus.stderr").path
        ).run()
    }

    /// Runs one focus and checks its JSON names the catalog's store at `position`.
    private func check(position: Int, database: URL, catalog: Catalog) throws {
        let output = workspace.path("focus.json")
        _ = try focus(at: position, database: database, stdout: output.path)
        struct Answer: Decodable {
            struct Store: Decodable { var id: String }
            var index: Int
            var store: Store
        }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: output))
        let expected = try catalog.store(list: workspace.listName, at: position).id
        guard answer.index == position, answer.store.id == expected else {
            throw BenchError("""
                carousel focus at position \(position) answered index \(answer.index), store \(answer.store.id); \
                the catalog has \(expected) there
                """)
        }
    }
}
