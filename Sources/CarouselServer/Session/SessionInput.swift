import CarouselEngine
import Foundation
import MapSync

/// One message a session's client sends, parsed and checked.
///
/// - `{"layout": {…}, "initialIndex": i}` — the carousel's layout (the
///   LAYOUT keys of a scroll script, `debounceMs` and `zoom` included);
///   first, or not at all (the default layout then).
/// - `{"offset": x}` — a frame: the carousel's offset now, as
///   `scrollViewDidScroll` reports it.
/// - `{"tapMarker": i}` — the user tapped store `i`'s marker.
enum SessionInput: Equatable {
    case layout(ScrollScript)
    case offset(Double)
    case tapMarker(Int)

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
        } else if keys.contains("layout"), keys.isSubset(of: ["layout", "initialIndex"]) {
            // The scroll script's reader checks the layout: same keys, same messages.
            var script = object
            script["events"] = [Any]()
            do {
                let json = try JSONSerialization.data(withJSONObject: script)
                self = .layout(try ScrollScript(json: json))
            } catch let error as ScrollScriptError {
                throw SessionInputError(error.description)
            } catch {
                throw SessionInputError("the layout is not valid JSON")
            }
        } else {
            let names = keys.sorted().prefix(5).joined(separator: ", ")
            throw SessionInputError("unknown message {\(names)}: send {\"offset\": x}, {\"tapMarker\": i} or {\"layout\": {…}}")
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
