/// A text table printed as its rows come, for listings of any length.
///
/// ``TextTable`` sizes its columns from every row, so it must hold them all
/// before printing the first; this one sizes them from the header and the
/// first ``sampleSize`` rows, caps text columns at a width, and fits every
/// later row to those widths: overlong text ends in "…", so the columns stay
/// aligned and memory stays flat whatever the number of rows.
struct StreamingTable {
    struct Column {
        var title: String
        var alignment: TextTable.Alignment = .left
        /// The widest a cell may be, in terminal cells; longer text is cut
        /// with an ellipsis. Nil: never cut (numbers).
        var maximumWidth: Int? = nil
    }

    /// How many rows size the columns.
    static let sampleSize = 200

    let columns: [Column]
    private let output: StandardOutput
    private var sample: [[String]] = []
    private var widths: [Int]?
    private(set) var rowCount = 0

    init(_ columns: [Column], output: StandardOutput) {
        self.columns = columns
        self.output = output
    }

    /// Adds a row: kept for sizing while the sample fills, printed after.
    /// Cells are escaped (``TerminalText``) first.
    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row needs one cell per column")
        rowCount += 1
        let cells = row.map(\.terminalEscaped)
        if let widths {
            output.line(Self.line(cells, columns, widths))
            output.flushFirstLines()
        } else {
            sample.append(cells)
            if sample.count == Self.sampleSize { printSample() }
        }
    }

    /// Prints whatever the sample still holds (a listing shorter than it).
    mutating func finish() {
        if widths == nil { printSample() }
    }

    private mutating func printSample() {
        let widths = columns.indices.map { column in
            let widest = sample.reduce(columns[column].title.terminalWidth) { max($0, $1[column].terminalWidth) }
            return min(widest, columns[column].maximumWidth ?? .max)
        }
        self.widths = widths
        output.line(Self.line(columns.map(\.title), columns, widths))
        output.line(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in sample { output.line(Self.line(row, columns, widths)) }
        sample = []
        output.flushFirstLines()
    }

    private static func line(_ cells: [String], _ columns: [Column], _ widths: [Int]) -> String {
        var line = ""
        for (i, cell) in cells.enumerated() {
            let fitted = columns[i].maximumWidth == nil ? cell : truncated(cell, toWidth: widths[i])
            let pad = String(repeating: " ", count: max(0, widths[i] - fitted.terminalWidth))
            if i > 0 { line += "  " }
            line += columns[i].alignment == .right ? pad + fitted : fitted + pad
        }
        while line.last == " " { line.removeLast() }
        return line
    }

    /// `text` cut to at most `width` terminal cells, ending in "…" when cut.
    static func truncated(_ text: String, toWidth width: Int) -> String {
        guard text.terminalWidth > width else { return text }
        guard width > 0 else { return "" }
        var kept = ""
        var used = 0
        for character in text {
            let cells = String(character).terminalWidth
            if used + cells > width - 1 { break }
            kept.append(character)
            used += cells
        }
        return kept + "…"
    }
}
