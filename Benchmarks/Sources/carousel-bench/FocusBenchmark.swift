import Foundation
import StoreCatalog
import SyntheticStores

/// The focus benchmark: `carousel focus --list places --offset X`
/// on the imported catalog, the whole process, cold: each run a new
/// process that opens the database, finds the focused store and prints it.
///
/// In every argument order people type, since a user's order is as good as
/// the README's: the CLI must have no fast path for one of them.
struct FocusBenchmark {
    /// One way of typing the same command.
    struct Order: Sendable {
        var label: String
        var arguments: @Sendable (_ list: String, _ offset: String, _ database: String) -> [String]
    }

    static let orders: [Order] = [
        Order(label: "focus --list L --offset X --db D --json") { ["focus", "--list", $0, "--offset", $1, "--db", $2, "--json"] },
        Order(label: "--db D focus --list L --offset X --json") { ["--db", $2, "focus", "--list", $0, "--offset", $1, "--json"] },
        Order(label: "focus --json --db=D --offset=X --list=L") { ["focus", "--json", "--db=\($2)", "--offset=\($1)", "--list=\($0)"] },
    ]

    var workspace: Workspace
    var runs: Int
    var seed: UInt64 = 0xF0C5
    /// The CLI's default layout (groupPagingCentered, 300-pt cards 12 apart):
    /// item `i` rests at `i · 312` (the default layout: 300-pt cards, spacing 12).
    static let page = 312.0

    func run(into report: inout Report) throws {
        let database = try workspace.catalog()
        let catalog = try Catalog(path: database.path)
        let count = try catalog.count(list: workspace.listName)
        var random = SplitMix64(seed: seed)
        let positions = (0..<runs).map { _ in Int.random(in: 0..<count, using: &random) }
        // Once, untimed: the answer must be the catalog's store at that position, in every order.
        for order in Self.orders {
            try check(position: positions[0], order: order, database: database, catalog: catalog)
        }
        try checkPeer(position: positions[0], database: database, catalog: catalog)
        // Alternating, run by run: a change in the machine's load hits every order and the peer.
        var seconds = [[Double]](repeating: [], count: Self.orders.count)
        var peerSeconds: [Double] = []
        for (run, position) in positions.enumerated() {
            if run.isMultiple(of: 10) { progress("focus: run \(run + 1)/\(runs)") }
            for (index, order) in Self.orders.enumerated() {
                seconds[index].append(try focus(at: position, order: order, database: database, stdout: nil).wallSeconds)
            }
            peerSeconds.append(try peerLookup(at: position, database: database, stdout: nil).wallSeconds)
        }
        let medians = seconds.map { Samples($0).median }
        let peerMedian = Samples(peerSeconds).median
        for (index, order) in Self.orders.enumerated() {
            report.rows.append(ReportRow(
                "cold `carousel \(order.label)`: median (p99)",
                ours: "\(Format.seconds(medians[index])) (p99 \(Format.seconds(Samples(seconds[index]).p99)))",
                target: .atMost(0.010, "10 ms"), measured: medians[index]
            ))
        }
        let slowest = medians.max() ?? 0
        let fastest = medians.min() ?? 0
        report.rows.append(ReportRow(
            "  slowest order vs fastest",
            ours: Format.seconds(slowest), peer: Format.seconds(fastest),
            ratio: Format.ratio(slowest / fastest), target: .atMost(1.3, "1.3×"), measured: slowest / fastest
        ))
        report.rows.append(ReportRow(
            "  start-up: slowest order vs `sqlite3` looking the row up",
            ours: Format.seconds(slowest), peer: Format.seconds(peerMedian) + " (sqlite3)",
            ratio: Format.ratio(slowest / peerMedian), target: .atMost(3, "3×"), measured: slowest / peerMedian
        ))
        report.notes.append("""
            focus: \(runs) rounds at random positions of the \(Format.count(count))-store list, each round \
            one process per argument order (\(Self.orders.map { "`carousel \($0.label)`" }.joined(separator: ", "))) \
            and `sqlite3 CATALOG` running the same list-position lookup \
            (`\(Self.peerSQL(position: 0))` with each position); wall from spawn to exit, default layout; \
            seed \(String(seed, radix: 16))
            """)
    }

    private func focus(at position: Int, order: Order, database: URL, stdout: String?) throws -> ProcessMeasurement {
        // Off the rest point by less than half a page: still focuses `position`.
        let offset = Double(position) * Self.page + 100
        return try MeasuredProcess(
            executable: workspace.carousel,
            arguments: order.arguments(workspace.listName, String(offset), database.path),
            stdoutPath: stdout,
            stderrPath: workspace.path("carousel-focus.stderr").path
        ).run()
    }

    /// The query `sqlite3` answers: the store at `position` of the list, as
    /// `focus` finds it (list by name, item by position, store by key).
    static func peerSQL(position: Int) -> String {
        """
        SELECT s.id, s.name, s.latitude, s.longitude FROM lists AS l \
        JOIN list_items AS i ON i.list = l.key AND i.position = \(position) \
        JOIN stores AS s ON s.key = i.store WHERE l.name = 'places'
        """
    }

    private func peerLookup(at position: Int, database: URL, stdout: String?) throws -> ProcessMeasurement {
        try MeasuredProcess(
            executable: "sqlite3", arguments: [database.path, Self.peerSQL(position: position)],
            stdoutPath: stdout, stderrPath: workspace.path("sqlite3-focus.stderr").path
        ).run()
    }

    /// Runs the peer once and checks it prints the catalog's store at `position`.
    private func checkPeer(position: Int, database: URL, catalog: Catalog) throws {
        let output = workspace.path("peer-focus.txt")
        _ = try peerLookup(at: position, database: database, stdout: output.path)
        let expected = try catalog.store(list: workspace.listName, at: position).id
        guard try String(contentsOf: output, encoding: .utf8).hasPrefix(expected + "|") else {
            throw BenchError("sqlite3's lookup of position \(position) does not print \(expected)")
        }
    }

    /// Runs one focus and checks its JSON names the catalog's store at `position`.
    private func check(position: Int, order: Order, database: URL, catalog: Catalog) throws {
        let output = workspace.path("focus.json")
        _ = try focus(at: position, order: order, database: database, stdout: output.path)
        struct Answer: Decodable {
            struct Store: Decodable { var id: String }
            var index: Int
            var store: Store
        }
        let answer = try JSONDecoder().decode(Answer.self, from: Data(contentsOf: output))
        let expected = try catalog.store(list: workspace.listName, at: position).id
        guard answer.index == position, answer.store.id == expected else {
            throw BenchError("""
                `carousel \(order.label)` at position \(position) answered index \(answer.index), store \(answer.store.id); \
                the catalog has \(expected) there
                """)
        }
    }
}
