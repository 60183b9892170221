/// A figure's goal (BENCHMARKS.md): the measured value must stay at or under a
/// bound, or reach at least one.
struct Target {
    enum Direction { case atMost, atLeast }

    var direction: Direction
    var bound: Double
    /// How the bound reads in the table, e.g. `≤ 1.5×`.
    var label: String

    static func atMost(_ bound: Double, _ label: String) -> Target {
        Target(direction: .atMost, bound: bound, label: "≤ " + label)
    }

    static func atLeast(_ bound: Double, _ label: String) -> Target {
        Target(direction: .atLeast, bound: bound, label: "≥ " + label)
    }

    func isMet(by value: Double) -> Bool {
        switch direction {
        case .atMost: value <= bound
        case .atLeast: value >= bound
        }
    }
}

/// One line of the results table.
struct ReportRow {
    var benchmark: String
    var ours: String
    /// The peer's figure, or `—` when the target is absolute.
    var peer: String
    /// The ratio the row compares (ours ÷ peer, or peer ÷ ours for "× faster"), or `—`.
    var ratio: String
    var target: String
    /// Whether the target is met; `nil` for a row that only explains another.
    var met: Bool?

    /// A row whose target applies to `measured` (a ratio or an absolute figure).
    init(_ benchmark: String, ours: String, peer: String = "—", ratio: String = "—", target: Target, measured: Double) {
        self.benchmark = benchmark
        self.ours = ours
        self.peer = peer
        self.ratio = ratio
        self.target = target.label
        self.met = target.isMet(by: measured)
    }

    /// A row without a target, breaking down another row's figure.
    init(_ benchmark: String, ours: String, peer: String, ratio: String) {
        self.benchmark = benchmark
        self.ours = ours
        self.peer = peer
        self.ratio = ratio
        self.target = "—"
        self.met = nil
    }

    var metMark: String {
        switch met {
        case true?: "✓"
        case false?: "✗"
        case nil: ""
        }
    }
}

/// The run's results: one table (benchmark, ours, peer, ratio, target, met)
/// with the machine, the load and the command that reproduces it.
///
/// The table is Markdown with padded columns: aligned on a terminal, and
/// pasted as is into BENCHMARKS.md.
struct Report {
    var machine: Machine
    var command: String
    var loadAtStart: String
    var loadAtEnd: String
    var rows: [ReportRow] = []
    /// How each benchmark was run (sizes, what the peer is, which lookup), one line each.
    var notes: [String] = []

    var allMet: Bool { rows.allSatisfy { $0.met != false } }

    func render() -> String {
        let header = ["benchmark", "ours", "peer", "ratio", "target", "met"]
        let cells = rows.map { [$0.benchmark, $0.ours, $0.peer, $0.ratio, $0.target, $0.metMark] }
        var widths = header.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ row: [String]) -> String {
            "| " + row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: " | ") + " |"
        }
        let rule = "|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|"
        var lines = [line(header), rule] + cells.map(line)
        lines.append("")
        lines += notes.map { "- " + $0 }
        lines.append("")
        lines.append(machine.description)
        lines.append("load:    \(loadAtStart) at start, \(loadAtEnd) at end (1/5/15-minute averages)")
        lines.append("command: \(command)")
        return lines.joined(separator: "\n")
    }
}
