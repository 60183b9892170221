import Foundation
import MapSync
import TextInput

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
    /// Whether the last event is `end`.
    public let hasEnd: Bool
    /// Whether an event pages with `accessibilityScroll`.
    public let hasAccessibilityScroll: Bool
    /// The event with the lowest and with the highest store index
    /// (`scrollTo`, `tapMarker`), for ``validate(storeCount:)``.
    private let lowestIndex: (index: Int, event: Int, at: Double, action: String)?
    private let highestIndex: (index: Int, event: Int, at: Double, action: String)?

    /// Reads and checks the script at `path`.
    public init(path: String) throws(ScrollScriptError) {
        self.path = path
        var scanner = try ScriptScanner(path: path)
        var header: [JSONValue.Member] = []
        var count = 0, previous = 0.0, sawEvents = false, sawEnd = false, sawAccessibilityScroll = false
        var lowest: (index: Int, event: Int, at: Double, action: String)?, highest: (index: Int, event: Int, at: Double, action: String)?
        try scanner.enterScript()
        while let key = try scanner.nextMemberName() {
            guard key == "events" else {
                if header.contains(where: { $0.key == key }) {
                    throw ScrollScriptError(ScrollScriptError.duplicateMember(key))
                }
                header.append(JSONValue.Member(key, try scanner.value()))
                continue
            }
            if sawEvents { throw ScrollScriptError(ScrollScriptError.duplicateMember(key)) }
            sawEvents = true
            try scanner.enterEvents()
            while let element = try scanner.nextEvent(position: count + 1) {
                count += 1
                let event = try Self.decode(element, position: count)
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
                if case .accessibilityScroll = event.action { sawAccessibilityScroll = true }
                let index: Int
                switch event.action {
                case let .scrollTo(target, _): index = target
                case let .tapMarker(target): index = target
                default: continue
                }
                if lowest == nil || index < lowest!.index { lowest = (index, count, event.at, event.action.name) }
                if highest == nil || index > highest!.index { highest = (index, count, event.at, event.action.name) }
            }
        }
        try scanner.finish()
        guard sawEvents else {
            throw ScrollScriptError(#"the script has no "events" array: give at least [] "#)
        }
        // The other members, as a document of their own with no events.
        script = try ScrollScript(document: .object(header + [JSONValue.Member("events", .array([]))]))
        eventCount = count
        hasEnd = sawEnd
        hasAccessibilityScroll = sawAccessibilityScroll
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
        var scanner = try ScriptScanner(path: path)
        try scanner.enterScript()
        while let key = try scanner.nextMemberName(), key != "events" {
            try scanner.skipValue()
        }
        try scanner.enterEvents()
        return Events(scanner: scanner)
    }

    /// The script's events in order, decoded as they are asked for.
    public struct Events {
        fileprivate var scanner: ScriptScanner
        fileprivate var position = 0

        /// The next event, or nil after the last.
        public mutating func next() throws(ScrollScriptError) -> ScrollScript.Event? {
            position += 1
            guard let element = try scanner.nextEvent(position: position) else { return nil }
            return try ScrollScriptFile.decode(element, position: position)
        }
    }

    /// One element of `events`, decoded by the code `init(json:)` uses.
    fileprivate static func decode(_ element: JSONValue, position: Int) throws(ScrollScriptError) -> ScrollScript.Event {
        try EventDocument.decode(from: JSONValueDecoder(element), position: position)
    }
}

/// A script file read by the package's JSON reader only as far as it takes
/// to find the top-level members and step through the `events` array, one
/// element (a small ``JSONValue``) at a time; 256 KiB of the file at a time.
private struct ScriptScanner {
    private var tokenizer: JSONTokenizer
    /// Whether the next member or element is its object's or array's first.
    private var first = true

    init(path: String) throws(ScrollScriptError) {
        // A folder opens for reading, then its first read fails: refused
        // here with words instead.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw ScrollScriptError("cannot read the script \(path): it is a folder, not a file")
        }
        do throws(InputError) {
            // An event (or the layout) is held whole while it is read: at
            // most a row's worth of bytes, as an import's row.
            var reader = try ByteReader(path: path)
            try reader.skipByteOrderMark()
            tokenizer = JSONTokenizer(reader: reader)
        } catch {
            throw ScrollScriptError("cannot read the script \(path): \(error.reason)")
        }
    }

    /// Runs `body`, turning the reader's failures into script errors.
    private mutating func reading<T>(
        event: Int? = nil, _ body: (inout JSONTokenizer) throws(JSONTokenizer.Failure) -> T
    ) throws(ScrollScriptError) -> T {
        do throws(JSONTokenizer.Failure) {
            return try body(&tokenizer)
        } catch {
            throw ScrollScriptError(error, event: event)
        }
    }

    /// Steps into the script's object.
    mutating func enterScript() throws(ScrollScriptError) {
        try reading { (tokenizer) throws(JSONTokenizer.Failure) in try tokenizer.expect(UInt8(ascii: "{"), "the script's object") }
    }

    /// The next top-level member's name, or nil after the last; its value
    /// must then be read (``value()``, ``skipValue()``, ``enterEvents()``).
    mutating func nextMemberName() throws(ScrollScriptError) -> String? {
        var isFirst = first, names = RawFields()
        let more = try reading { (tokenizer) throws(JSONTokenizer.Failure) in
            try tokenizer.nextMember(isFirst: &isFirst, keys: &names)
        }
        first = isFirst
        return more ? String(decoding: names.field(0), as: UTF8.self) : nil
    }

    /// The value of a top-level member, whole.
    mutating func value() throws(ScrollScriptError) -> JSONValue {
        try reading { (tokenizer) throws(JSONTokenizer.Failure) in
            tokenizer.startRow()
            return try JSONValue.read(from: &tokenizer)
        }
    }

    mutating func skipValue() throws(ScrollScriptError) {
        try reading { (tokenizer) throws(JSONTokenizer.Failure) in
            tokenizer.startRow()
            try tokenizer.skipValue()
        }
    }

    /// Steps into the `events` array.
    mutating func enterEvents() throws(ScrollScriptError) {
        guard try reading({ (tokenizer) throws(JSONTokenizer.Failure) in try tokenizer.consume(UInt8(ascii: "[")) }) else {
            throw ScrollScriptError("events must be an array")
        }
        first = true
    }

    /// The next element of `events` (the event at `position`), or nil
    /// after the last.
    mutating func nextEvent(position: Int) throws(ScrollScriptError) -> JSONValue? {
        var isFirst = first
        guard try reading({ (tokenizer) throws(JSONTokenizer.Failure) in try tokenizer.nextElement(isFirst: &isFirst) }) else {
            return nil
        }
        first = isFirst
        return try reading(event: position) { (tokenizer) throws(JSONTokenizer.Failure) in
            tokenizer.startRow()
            return try JSONValue.read(from: &tokenizer)
        }
    }

    /// Steps out of the script's object: after it, nothing but whitespace.
    mutating func finish() throws(ScrollScriptError) {
        try reading { (tokenizer) throws(JSONTokenizer.Failure) in
            if let byte = try tokenizer.skipWhitespace() {
                throw tokenizer.unexpected(byte, expected: "the end of the file after the script's object")
            }
        }
    }
}
