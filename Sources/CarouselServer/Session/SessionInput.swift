import CarouselEngine
import MapCamera
import MapSync
import MapSyncSimulation
import TextInput

/// One message a session's client sends, parsed and checked.
///
/// - `{"layout": {…}, "initialIndex": i}` — the carousel's layout (the
///   LAYOUT keys of a scroll script, `debounceMs` and `zoom` included);
///   first, or not at all (the default layout then).
/// - `{"map": {…}}` — the map the carousel covers (a scroll script's `map`
///   object: view size, insets, framing…), so the cameras come framed for
///   it; with the layout in one message, or in a message of its own.
/// - `{"offset": x}` — a frame: the carousel's offset now, as
///   `scrollViewDidScroll` reports it.
/// - `{"tapMarker": i}` — the user tapped store `i`'s marker.
/// - `{"query": {…}}` — show the results of this search of the list
///   (``SessionQuery``: the items of `GET /stores/search`); `{"query": null}`
///   shows the whole list again.
/// - `{"autoplay": "start"}`, `{"autoplay": "stop"}` — the user's play and
///   stop of autoplay (the layout's `autoplayMs` turns it on).
/// - `{"pause": REASON, "on": true|false}` — an outside reason to pause
///   autoplay begins or ends: `voiceOver`, `focus`, `hover`, `background`,
///   `offscreen` or `mapGesture`.
/// - `{"accessibilityScroll": "next"}` or `"previous"` — VoiceOver or
///   TalkBack pages the carousel one store.
///
/// These are a scroll script's events of the same names, without `at`.
enum SessionInput: Equatable {
    case layout(ScrollScript)
    case map(MapFraming)
    case offset(Double)
    case tapMarker(Int)
    case query(SessionQuery?)
    case autoplay(play: Bool)
    case pause(AutoplayPauseReason, on: Bool)
    case accessibilityScroll(AccessibilityScrollDirection)

    /// Parses `text`; the error says what a client should send instead.
    init(text: String) throws(SessionInputError) {
        let notAnObject = SessionInputError("a message is a JSON object: {\"offset\": x}, {\"tapMarker\": i} or {\"layout\": {…}}")
        let parsed: JSONValue
        do throws(JSONTokenizer.Failure) {
            parsed = try JSONValue.parse(text.utf8, name: "the message")
        } catch {
            if case .duplicateMember(_, _, let name) = error {
                throw SessionInputError("duplicate member \"\(name.prefix(40))\": each name may appear once in a message")
            }
            throw notAnObject
        }
        guard case .object(let members) = parsed else { throw notAnObject }
        let message = JSONValue.object(members)
        let keys = Set(members.map(\.key))
        if keys == ["offset"] {
            guard case .number(let text) = message["offset"], let offset = Double(text), offset.isFinite else {
                throw SessionInputError("offset must be a finite number")
            }
            self = .offset(offset)
        } else if keys == ["tapMarker"] {
            guard let index = try? JSONValueDecoder(message["tapMarker"]!).singleValueContainer().decode(Int.self) else {
                throw SessionInputError("tapMarker must be a whole store index")
            }
            self = .tapMarker(index)
        } else if keys == ["query"] {
            self = .query(try Self.query(message["query"]!))
        } else if keys == ["autoplay"] {
            switch message["autoplay"] {
            case .string("start"): self = .autoplay(play: true)
            case .string("stop"): self = .autoplay(play: false)
            default: throw SessionInputError("autoplay must be \"start\" or \"stop\"")
            }
        } else if keys.contains("pause") && keys.isSubset(of: ["pause", "on"]) {
            guard case .string(let name) = message["pause"] else {
                throw SessionInputError(
                    "pause must be a reason: one of \(AutoplayPauseReason.external.map(\.rawValue).joined(separator: ", "))")
            }
            let reason: AutoplayPauseReason
            do throws(AutoplayError) {
                reason = try AutoplayPauseReason(externalName: name)
            } catch {
                throw SessionInputError(error.description)
            }
            guard case .bool(let on) = message["on"] else {
                throw SessionInputError("pause needs \"on\": true when the reason begins, false when it ends")
            }
            self = .pause(reason, on: on)
        } else if keys == ["accessibilityScroll"] {
            guard case .string(let name) = message["accessibilityScroll"], let direction = AccessibilityScrollDirection(rawValue: name)
            else {
                throw SessionInputError("accessibilityScroll must be \"next\" or \"previous\"")
            }
            self = .accessibilityScroll(direction)
        } else if keys.contains("layout") && keys.isSubset(of: ["layout", "map", "initialIndex"]) || keys == ["map"] {
            // The scroll script's reader checks the layout and the map: same
            // keys, same messages.
            let parsed: ScrollScript
            do throws(ScrollScriptError) {
                parsed = try ScrollScript(document: .object(members + [JSONValue.Member("events", .array([]))]))
            } catch {
                throw SessionInputError(error.description)
            }
            if keys.contains("layout") {
                self = .layout(parsed)
            } else if let map = parsed.map {
                self = .map(map)
            } else {
                throw SessionInputError("map must be an object of the scroll script's map keys")
            }
        } else {
            let names = keys.sorted().prefix(5).joined(separator: ", ")
            throw SessionInputError(
                """
                unknown message {\(names)}: send {"offset": x}, {"tapMarker": i}, {"layout": {…}}, {"map": {…}}, {"query": {…}}, \
                {"autoplay": "start"|"stop"}, {"pause": reason, "on": bool} or {"accessibilityScroll": "next"|"previous"}
                """)
        }
    }

    /// A `query` message: null, or an object of search items whose values
    /// are strings or numbers (`where`: a string or an array of them).
    private static func query(_ value: JSONValue) throws(SessionInputError) -> SessionQuery? {
        let invalid = SessionInputError(
            "query must be null or an object of search items ({\"q\": \"coffee\", …}) whose values are strings or numbers")
        if value == .null { return nil }
        guard case .object(let members) = value else { throw invalid }
        var items: [SessionQuery.Item] = []
        for member in members.sorted(by: { $0.key < $1.key }) {
            guard let texts = texts(of: member.value) else { throw invalid }
            guard SessionQuery.names.contains(member.key) else {
                let known = SessionQuery.names.sorted().joined(separator: ", ")
                throw SessionInputError("query: unknown item '\(member.key.prefix(40))' (known: \(known))")
            }
            guard member.key == "where" || texts.count == 1 else { throw SessionInputError("query: only where takes a list") }
            items += texts.map { SessionQuery.Item(name: member.key, value: $0) }
        }
        return SessionQuery(items: items)
    }

    /// A query item's value as the text a URL would carry: a string as is,
    /// a number as written (a whole number without a fraction), an array of
    /// strings; nil for anything else (`true`, `null`, an object).
    private static func texts(of value: JSONValue) -> [String]? {
        switch value {
        case .string(let string):
            return [string]
        case .number(let text):
            if let integer = Int(text) { return [String(integer)] }
            return Double(text).flatMap { $0.isFinite ? [String($0)] : nil }
        case .array(let elements):
            var strings: [String] = []
            for element in elements {
                guard case .string(let string) = element else { return nil }
                strings.append(string)
            }
            return strings
        default:
            return nil
        }
    }
}

/// Why a session message was refused; sent back as an `error` message.
struct SessionInputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
