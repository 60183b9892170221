import CarouselEngine
import Foundation
import MapCamera
import MapSync
import MapSyncSimulation

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
enum SessionInput: Equatable {
    case layout(ScrollScript)
    case map(MapFraming)
    case offset(Double)
    case tapMarker(Int)
    case query(SessionQuery?)

    /// Parses `text`; the error says what a client should send instead.
    init(text: String) throws(SessionInputError) {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? [String: Any]
        else { throw SessionInputError("a message is a JSON object: {\"offset\": x}, {\"tapMarker\": i} or {\"layout\": {…}}") }
        let keys = Set(object.keys)
        if keys == ["offset"] {
            guard let offset = try? JSONDecoder().decode(Offset.self, from: data).offset, offset.isFinite else {
                throw SessionInputError("offset must be a finite number")
            }
            self = .offset(offset)
        } else if keys == ["tapMarker"] {
            guard let index = try? JSONDecoder().decode(TapMarker.self, from: data).tapMarker else {
                throw SessionInputError("tapMarker must be a whole store index")
            }
            self = .tapMarker(index)
        } else if keys == ["query"] {
            self = .query(try Self.query(data))
        } else if keys.contains("layout") && keys.isSubset(of: ["layout", "map", "initialIndex"]) || keys == ["map"] {
            // The scroll script's reader checks the layout and the map: same
            // keys, same messages.
            var script = object
            script["events"] = [Any]()
            let parsed: ScrollScript
            do {
                parsed = try ScrollScript(json: try JSONSerialization.data(withJSONObject: script))
            } catch let error as ScrollScriptError {
                throw SessionInputError(error.description)
            } catch {
                throw SessionInputError("the layout or map is not valid JSON")
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
                "unknown message {\(names)}: send {\"offset\": x}, {\"tapMarker\": i}, {\"layout\": {…}}, {\"map\": {…}} or {\"query\": {…}}")
        }
    }

    /// A `query` message: null, or an object of search items whose values
    /// are strings or numbers (`where`: a string or an array of them).
    private static func query(_ data: Data) throws(SessionInputError) -> SessionQuery? {
        let object: [String: QueryValue]?
        do {
            object = try JSONDecoder().decode(QueryMessage.self, from: data).query
        } catch {
            throw SessionInputError(
                "query must be null or an object of search items ({\"q\": \"coffee\", …}) whose values are strings or numbers")
        }
        guard let object else { return nil }
        var items: [SessionQuery.Item] = []
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard SessionQuery.names.contains(name) else {
                let known = SessionQuery.names.sorted().joined(separator: ", ")
                throw SessionInputError("query: unknown item '\(name.prefix(40))' (known: \(known))")
            }
            guard name == "where" || value.texts.count == 1 else { throw SessionInputError("query: only where takes a list") }
            items += value.texts.map { SessionQuery.Item(name: name, value: $0) }
        }
        return SessionQuery(items: items)
    }

    private struct QueryMessage: Decodable { var query: [String: QueryValue]? }

    /// A query item's value as the text a URL would carry: a string as is,
    /// a number as written (a whole number without a fraction); JSONDecoder
    /// refuses `true` for either.
    private struct QueryValue: Decodable {
        var texts: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                texts = [string]
            } else if let integer = try? container.decode(Int.self) {
                texts = [String(integer)]
            } else if let number = try? container.decode(Double.self) {
                texts = [String(number)]
            } else {
                texts = try container.decode([String].self)
            }
        }
    }

    // Decoded by JSONDecoder, which refuses `true` or `"3"` for a number
    // (JSONSerialization would hand either over as an NSNumber).
    private struct Offset: Decodable { var offset: Double }
    private struct TapMarker: Decodable { var tapMarker: Int }
}

/// Why a session message was refused; sent back as an `error` message.
struct SessionInputError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
