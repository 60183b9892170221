import MapSync
import TextInput

/// A scroll script that cannot run: which event (numbered from 1, with its
/// time), and what is wrong with it. Nothing is simulated when one is thrown.
///
/// `event 3 (at 1400): scrollTo 12 is out of range: the list has 8 stores (0...7)`
public struct ScrollScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's position in `events`, from 1; nil for the script as a whole.
    public let event: Int?
    /// The event's time, when it could be read.
    public let at: Double?
    /// What is wrong, and where possible what to do.
    public let reason: String

    /// Where in the text the JSON breaks (1-based; the column counts
    /// bytes from the line's start), for a script that is not JSON.
    public let line: Int?
    public let column: Int?

    public init(_ reason: String, event: Int? = nil, at: Double? = nil, line: Int? = nil, column: Int? = nil) {
        self.reason = reason
        self.event = event
        self.at = at
        self.line = line
        self.column = column
    }

    public var description: String {
        let position = line.map { " (line \($0), column \(column ?? 1))" } ?? ""
        guard let event else { return "scroll script: \(reason)\(position)" }
        let time = at.map { " (at \(Self.format($0)))" } ?? ""
        return "event \(event)\(time): \(reason)\(position)"
    }

    /// A time or length for a message: `1400`, `1400.5`.
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension ScrollScriptError {
    /// The error for JSON that broke while the script was read; `event` is
    /// the event being read, if any.
    init(_ failure: JSONTokenizer.Failure, event: Int? = nil) {
        switch failure {
        case .syntax(let line, let column, let reason):
            self.init("not valid JSON: \(reason)", event: event, line: line, column: column)
        case .duplicateMember(let line, let column, let name):
            self.init(Self.duplicateMember(name), event: event, line: line, column: column)
        case .file(let error as InputError):
            self.init("cannot read the script \(error.path): \(error.reason)")
        case .file(let error):
            self.init("\(error)", event: event)
        }
    }

    /// The reason for a name that appears twice in one object: RFC 8259 §4
    /// leaves its meaning open (`JSONDecoder` took the last one, so
    /// `{"at": 0, "at": 500}` ran at 500 with no word), so a script, like
    /// an imported file, refuses it.
    static func duplicateMember(_ name: String) -> String {
        "duplicate member \"\(name)\": each name may appear once in an object"
    }
}
