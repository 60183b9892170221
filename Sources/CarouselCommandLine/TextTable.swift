/// A plain-text table for human output: a header row, a rule, and columns
/// padded to their widest cell. Numbers read best right-aligned, so a column
/// can say so.
struct TextTable {
    enum Alignment { case left, right }

    struct Column {
        var title: String
        var alignment: Alignment = .left
    }

    var columns: [Column]
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    /// Adds a row; control characters in its cells are escaped
    /// (``TerminalText``), so data never drives the terminal.
    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row needs one cell per column")
        rows.append(row.map(\.terminalEscaped))
    }

    func render() -> String {
        // Width in terminal cells: Hangul and CJK render two cells wide, so a
        // table of Korean store names stays aligned.
        var widths = columns.map { $0.title.terminalWidth }
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.terminalWidth) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.terminalWidth)
                return columns[i].alignment == .right ? pad + cell : cell + pad
            }
            .joined(separator: "  ")
            .trailingSpacesTrimmed()
        }
        var out = [line(columns.map(\.title))]
        out.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        out += rows.map(line)
        return out.joined(separator: "\n")
    }
}

extension String {
    /// Cells this string takes in a terminal: two for each wide character
    /// (East Asian Wide/Fullwidth: Hangul, CJK, fullwidth forms), one else.
    var terminalWidth: Int {
        unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
                0x4E00...0x9FFF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
                0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6:
                return width + 2
            case 0x0300...0x036F, 0x200B...0x200F:
                return width  // combining marks and zero-width characters
            default:
                return width + 1
            }
        }
    }

    fileprivate func trailingSpacesTrimmed() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
