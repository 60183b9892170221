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

    mutating func append(_ row: [String]) {
        precondition(row.count == columns.count, "a row needs one cell per column")
        rows.append(row)
    }

    func render() -> String {
        // Width in characters (grapheme clusters); Hangul renders two cells
        // wide in most terminals, which we accept: the table stays aligned by
        // character, and --json is there for machines.
        var widths = columns.map { $0.title.count }
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
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
    fileprivate func trailingSpacesTrimmed() -> String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
