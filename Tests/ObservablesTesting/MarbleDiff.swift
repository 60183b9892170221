import Observables
import Testing

/// Records a test issue unless `actual` equals `expected` as a whole,
/// showing both timelines side by side with the differing rows marked.
public func expectEvents<Value: Equatable>(
    _ actual: [Recorded<Value>],
    _ expected: [Recorded<Value>],
    _ comment: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard actual != expected else { return }
    let heading = comment.map { "\($0)\n" } ?? ""
    Issue.record(
        Comment(rawValue: heading + marbleDiff(expected: expected, actual: actual)),
        sourceLocation: sourceLocation
    )
}

/// Two timelines side by side, `expected | actual`, one row per position,
/// rows that differ marked with `✗`.
public func marbleDiff<Value: Equatable>(expected: [Recorded<Value>], actual: [Recorded<Value>]) -> String {
    let width = max(expected.map(\.description.count).max() ?? 0, "expected".count)
    func padded(_ text: String) -> String {
        text + String(repeating: " ", count: width - text.count)
    }
    var lines = ["  " + padded("expected") + " | actual"]
    for row in 0..<max(expected.count, actual.count) {
        let want = row < expected.count ? expected[row] : nil
        let got = row < actual.count ? actual[row] : nil
        let mark = want == got ? " " : "✗"
        lines.append("\(mark) " + padded(want?.description ?? "—") + " | " + (got?.description ?? "—"))
    }
    return lines.joined(separator: "\n")
}
