import Foundation
import MapSync

/// A scroll script read from a file in a stream: its events are decoded one
/// at a time, each when it is needed, so that a script of a million events
/// runs in the memory of one (``ScrollScript/init(json:)`` holds the whole
/// document, its parse and every event: 233 MB for a million).
///
/// Opening the file reads it once through: the members other than `events`
/// become ``script`` (decoded exactly as ``ScrollScript/init(json:)`` does,
/// with no events), and every event is decoded and checked — time order,
/// numbers, `end` last — so a bad script fails before anything runs. The
/// simulation then reads the events again with ``makeEvents()``.
public struct ScrollScriptFile: Sendable {
    /// The file.
    public let path: String
    /// The script's layout, map settings and initial index, with no events.
    public var script: ScrollScript
    /// The number of events.
    public let eventCount: Int
    /// The event with the lowest and with the highest store index
    /// (`scrollTo`, `tapMarker`), for ``validate(storeCount:)``.
    private let lowestIndex: (index: Int, event: Int, at: Double, action: String)?
    private let highestIndex: (index: Int, event: Int, at: Double, action: String)?

    /// Reads and checks the script at `path`.
    public init(path: String) throws(ScrollScriptError) {
        self.path = path
        var scanner = try ScriptScanner(path: path)
        var header: [(key: String, value: [UInt8])] = []
        var count = 0, previous = 0.0, sawEnd = false
        var lowest: (index: Int, event: Int, at: Double, action: String)?, highest: (index: Int, event: Int, at: Double, action: String)?
        try scanner.members { (key, scanner) throws(ScrollScriptError) in
            guard key == "events" else {
                header.append((key, try scanner.value()))
                return
            }
            try scanner.elements { (bytes) throws(ScrollScriptError) in
                count += 1
                let event = try Self.decode(bytes, position: count)
                // The event's own numbers, by ScrollScript.validate()'s code;
                // then what it checks across events: order, `end` last.
                do throws(ScrollScriptError) {
                    try ScrollScript(events: [event]).validate()
                } catch {
                    throw ScrollScriptError(error.reason, event: count, at: event.at)
                }
                if sawEnd {
                    throw ScrollScriptError("end must be the last event: nothing happens after the input completes", event: count - 1)
                }
                guard event.at >= previous else {
                    throw ScrollScriptError(
                        "events out of order: at \(ScrollScriptError.format(event.at)) comes after \(ScrollScriptError.format(previous)); list events in time order",
                        event: count, at: event.at)
                }
                previous = event.at
                if case .end = event.action { sawEnd = true }
                let index: Int
                switch event.action {
                case let .scrollTo(target, _): index = target
                case let .tapMarker(target): index = target
                default: return
                }
                if lowest == nil || index < lowest!.index { lowest = (index, count, event.at, event.action.name) }
                if highest == nil || index > highest!.index { highest = (index, count, event.at, event.action.name) }
            }
        }
        guard scanner.sawEvents else {
            throw ScrollScriptError(#"the script has no "events" array: give at least [] "#)
        }
        // The other members, as a document of their own with no events.
        var document = Array("{".utf8)
        for (key, value) in header {
            document += Array(#"""#.utf8) + Array(key.utf8) + Array(#"":"#.utf8) + value + Array(",".utf8)
        }
        document += Array(#""events":[]}"#.utf8)
        script = try ScrollScript(json: Data(document))
        eventCount = count
        lowestIndex = lowest
        highestIndex = highest
    }

    /// Checks the initial index and every `scrollTo` and `tapMarker` against
    /// a list of `storeCount` stores, as ``ScrollScript/validate(storeCount:)``.
    public func validate(storeCount: Int) throws(ScrollScriptError) {
        try script.validate(storeCount: storeCount)
        for bound in [lowestIndex, highestIndex] {
            guard let bound, !(0..<storeCount).contains(bound.index) else { continue }
            throw ScrollScriptError(
                "\(bound.action) \(bound.index) is out of range: \(Self.describe(storeCount: storeCount))",
                event: bound.event, at: bound.at)
        }
    }

    /// The list in words, as ``ScrollScript/validate(storeCount:)`` says it.
    private static func describe(storeCount: Int) -> String {
        switch storeCount {
        case 0: "the list is empty"
        case 1: "the list has 1 store (index 0)"
        default: "the list has \(storeCount) stores (0...\(storeCount - 1))"
        }
    }

    /// The events, read from the file again one at a time.
    public func makeEvents() throws(ScrollScriptError) -> Events {
        Events(scanner: try ScriptScanner(path: path))
    }

    /// The script's events in order, decoded as they are asked for.
    public struct Events {
        fileprivate var scanner: ScriptScanner
        fileprivate var position = 0

        /// The next event, or nil after the last.
        public mutating func next() throws(ScrollScriptError) -> ScrollScript.Event? {
            position += 1
            guard let bytes = try scanner.nextEvent() else { return nil }
            return try ScrollScriptFile.decode(bytes, position: position)
        }
    }

    /// One element of `events`, decoded by the code `init(json:)` uses.
    fileprivate static func decode(_ bytes: [UInt8], position: Int) throws(ScrollScriptError) -> ScrollScript.Event {
        if let name = DuplicateMembers.first(in: bytes) {
            throw ScrollScriptError(DuplicateMembers.message(name), event: position)
        }
        let decoder = JSONDecoder()
        decoder.userInfo[OneEvent.position] = position
        do {
            return try decoder.decode(OneEvent.self, from: Data(bytes)).event
        } catch let error as ScrollScriptError {
            throw error
        } catch {
            throw ScrollScriptError("not valid JSON: \(error)", event: position)
        }
    }

    private struct OneEvent: Decodable {
        static let position = CodingUserInfoKey(rawValue: "position")!
        let event: ScrollScript.Event
        init(from decoder: any Decoder) throws {
            event = try EventDocument.decode(from: decoder, position: decoder.userInfo[Self.position] as? Int ?? 0)
        }
    }
}

/// The bytes of a script file, scanned as JSON only as far as it takes to
/// find the top-level members and split the `events` array into elements;
/// each piece is then decoded by `JSONDecoder`. Reads 64 KiB at a time.
private struct ScriptScanner {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var index = 0
    private(set) var sawEvents = false
    /// Inside `events`, for `nextEvent()`: whether an element came already.
    private var inEvents = false, firstElement = true

    init(path: String) throws(ScrollScriptError) {
        // A folder opens for reading, then its first read fails: refused
        // here with words instead.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ScrollScriptError("cannot read the script \(path): it is a folder, not a file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw ScrollScriptError("cannot read the script \(path)")
        }
        self.handle = handle
    }

    private mutating func peek() -> UInt8? {
        if index == buffer.count {
            // `read(upToCount:)` throws where `readData(ofLength:)` traps
            // (a read error, EISDIR): a failed read ends the input, which
            // then fails to parse with a one-line error.
            buffer = Array((try? handle.read(upToCount: 1 << 16)) ?? Data())
            index = 0
            if buffer.isEmpty { return nil }
        }
        return buffer[index]
    }

    private mutating func next() -> UInt8? {
        defer { if index < buffer.count { index += 1 } }
        return peek()
    }

    private mutating func skipWhitespace() -> UInt8? {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        return peek()
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(ScrollScriptError) {
        guard skipWhitespace() == byte else { throw ScrollScriptError("not valid JSON: expected \(what)") }
        index += 1
    }

    /// Calls `body` with each top-level member's name; `body` must consume
    /// its value (with `value()` or `elements(_:)`).
    mutating func members(_ body: (String, inout ScriptScanner) throws(ScrollScriptError) -> Void) throws(ScrollScriptError) {
        try expect(UInt8(ascii: "{"), "an object")
        var first = true
        while true {
            if skipWhitespace() == UInt8(ascii: "}") { index += 1; break }
            if !first { try expect(UInt8(ascii: ","), "',' or '}'") }
            first = false
            guard skipWhitespace() == UInt8(ascii: "\"") else { throw ScrollScriptError("not valid JSON: expected a member name") }
            let raw = try value()
            guard let key = try? JSONDecoder().decode(String.self, from: Data(raw)) else {
                throw ScrollScriptError("not valid JSON: a member name is not a valid string")
            }
            try expect(UInt8(ascii: ":"), "':'")
            if key == "events" {
                if sawEvents { throw ScrollScriptError(#"a second "events" member"#) }
                sawEvents = true
            }
            try body(key, &self)
        }
        guard skipWhitespace() == nil else { throw ScrollScriptError("not valid JSON: text after the script's object") }
    }

    /// The `events` array's elements, each as its bytes.
    mutating func elements(_ body: ([UInt8]) throws(ScrollScriptError) -> Void) throws(ScrollScriptError) {
        guard skipWhitespace() == UInt8(ascii: "[") else { throw ScrollScriptError("events must be an array") }
        index += 1
        var first = true
        while true {
            if skipWhitespace() == UInt8(ascii: "]") { index += 1; return }
            if !first { try expect(UInt8(ascii: ","), "',' or ']' between events") }
            first = false
            try body(try value())
        }
    }

    /// Skips to the `events` array (once), then returns its next element.
    mutating func nextEvent() throws(ScrollScriptError) -> [UInt8]? {
        if !inEvents {
            try expect(UInt8(ascii: "{"), "an object")
            var first = true
            while true {
                if !first { try expect(UInt8(ascii: ","), "','") }
                first = false
                let raw = try value()
                try expect(UInt8(ascii: ":"), "':'")
                if raw == Array(#""events""#.utf8) { break }
                _ = try value()
            }
            try expect(UInt8(ascii: "["), "an array")
            inEvents = true
        }
        if skipWhitespace() == UInt8(ascii: "]") { return nil }
        if !firstElement { try expect(UInt8(ascii: ","), "','") }
        firstElement = false
        return try value()
    }

    /// The next value's bytes as written: strings with their escapes,
    /// objects and arrays to their matching bracket. Nesting is bounded.
    mutating func value() throws(ScrollScriptError) -> [UInt8] {
        guard skipWhitespace() != nil else { throw ScrollScriptError("not valid JSON: the file ends early") }
        var bytes: [UInt8] = []
        var depth = 0, inString = false, escaped = false
        while let byte = next() {
            bytes.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                if !inString && depth == 0 { return bytes }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                guard depth <= 512 else { throw ScrollScriptError("not valid JSON: nesting deeper than 512 levels") }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                guard depth >= 0 else { throw ScrollScriptError("not valid JSON: unexpected '\(Character(Unicode.Scalar(byte)))'") }
                if depth == 0 { return bytes }
            default:
                // A scalar ends before a delimiter at depth 0.
                if depth == 0, let next = peek(), [UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x0A, 0x0D, 0x09].contains(next) {
                    return bytes
                }
            }
        }
        if inString || depth > 0 { throw ScrollScriptError("not valid JSON: the file ends inside a value") }
        return bytes
    }
}
