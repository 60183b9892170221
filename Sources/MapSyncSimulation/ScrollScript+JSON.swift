import CarouselEngine
import Foundation
import Geo
import MapCamera
import MapSync
import TextInput

extension ScrollScript {
    /// Reads a script from JSON (the format in the README) and validates it (``validate()``).
    ///
    /// Unknown keys are rejected by name — a misspelt `"tapMaker"` must not
    /// silently do nothing — and every problem inside `events` names the
    /// event's position (from 1) and time; JSON that breaks names its line
    /// and column.
    public init(json: Data) throws(ScrollScriptError) {
        let document: JSONValue
        do throws(JSONTokenizer.Failure) {
            document = try JSONValue.parse(json, name: "the script")
        } catch {
            throw ScrollScriptError(error)
        }
        try self.init(document: document)
    }

    /// Reads a script that is already parsed (the `script` of a request
    /// body, a session's layout message) and validates it.
    package init(document: JSONValue) throws(ScrollScriptError) {
        do {
            self = try ScriptDocument(from: JSONValueDecoder(document)).script
        } catch let error as ScrollScriptError {
            throw error
        } catch let error as DecodingError {
            throw ScrollScriptError(describe(error))
        } catch let problem as Problem {
            throw ScrollScriptError(problem.reason)
        } catch {
            throw ScrollScriptError("\(error)")
        }
        try validate()
    }
}

/// The top-level object: `layout`, `initialIndex`, `events`.
private struct ScriptDocument: Decodable {
    let script: ScrollScript

    init(from decoder: any Decoder) throws {
        let top = try decoder.container(keyedBy: AnyKey.self)
        try top.rejectUnknownKeys(allowing: ["layout", "map", "initialIndex", "events"], in: "the script")

        var layout = LayoutSpec(), debounceMs: Double?, zoom: Double?
        var autoplayMs: Double?, autoplayEnd: AutoplayEnd?, reduceMotion: Bool?, statusTemplate: StatusTemplate?
        if top.contains("layout") {
            let layoutDecoder = try top.superDecoder(forKey: "layout")
            layout = try LayoutSpec(
                from: layoutDecoder,
                allowingKeys: ["debounceMs", "zoom", "autoplayMs", "autoplayEnd", "reduceMotion", "statusTemplate"])
            let extra = try layoutDecoder.container(keyedBy: AnyKey.self)
            debounceMs = try extra.decodeIfPresent(Double.self, forKey: "debounceMs")
            zoom = try extra.decodeIfPresent(Double.self, forKey: "zoom")
            autoplayMs = try extra.decodeIfPresent(Double.self, forKey: "autoplayMs")
            if let name = try extra.decodeIfPresent(String.self, forKey: "autoplayEnd") {
                guard let end = AutoplayEnd(rawValue: name) else {
                    throw Problem("layout.autoplayEnd must be rewind or stop (got '\(name.prefix(40))')")
                }
                autoplayEnd = end
            }
            reduceMotion = try extra.decodeIfPresent(Bool.self, forKey: "reduceMotion")
            if let text = try extra.decodeIfPresent(String.self, forKey: "statusTemplate") {
                do {
                    statusTemplate = try StatusTemplate(text)
                } catch {
                    throw Problem("layout.statusTemplate: \(error)")
                }
            }
        }
        var map: MapFraming?
        if top.contains("map") {
            // Without its own zoom, the map takes the layout's (or the default).
            map = try MapDocument.decode(try top.nestedContainer(keyedBy: AnyKey.self, forKey: "map"), zoom: zoom)
        }
        let initialIndex = try top.contains("initialIndex") ? top.wholeNumber("initialIndex") : 0

        guard top.contains("events") else {
            throw ScrollScriptError(#"the script has no "events" array: give at least [] "#)
        }
        var list = try top.nestedUnkeyedContainer(forKey: "events")
        var events: [ScrollScript.Event] = []
        while !list.isAtEnd {
            let position = list.currentIndex + 1
            events.append(try EventDocument.decode(from: list.superDecoder(), position: position))
        }
        script = ScrollScript(
            layout: layout, debounceMs: debounceMs, zoom: zoom, map: map, initialIndex: initialIndex,
            autoplayMs: autoplayMs, autoplayEnd: autoplayEnd, reduceMotion: reduceMotion, statusTemplate: statusTemplate,
            events: events)
    }
}

/// The `map` object: the MAP flags in camelCase. `insets` is
/// `{"top", "left", "bottom", "right"}` (missing edges 0) or
/// `[top, left, bottom, right]`.
private enum MapDocument {
    static let keys = [
        "mapWidth", "mapHeight", "insets", "tileSize", "framing", "neighbors", "fitPadding",
        "keepMargin", "minZoom", "maxZoom", "zoom", "maxDurationMs",
    ]

    static func decode(_ map: KeyedDecodingContainer<AnyKey>, zoom: Double?) throws -> MapFraming {
        try map.rejectUnknownKeys(allowing: keys, in: "map")
        var framing = MapFraming()
        func number(_ key: AnyKey, _ apply: (Double) -> Void) throws {
            if let value = try map.decodeIfPresent(Double.self, forKey: key) { apply(value) }
        }
        try number("mapWidth") { framing.mapWidth = $0 }
        try number("mapHeight") { framing.mapHeight = $0 }
        try number("fitPadding") { framing.fitPadding = $0 }
        try number("keepMargin") { framing.keepMargin = $0 }
        try number("minZoom") { framing.minZoom = $0 }
        try number("maxZoom") { framing.maxZoom = $0 }
        try number("maxDurationMs") { framing.maxDurationMs = $0 }
        framing.zoom = try map.decodeIfPresent(Double.self, forKey: "zoom") ?? zoom ?? MapSyncViewModel.defaultZoom
        if map.contains("neighbors") {
            framing.neighbors = try map.wholeNumber("neighbors")
        }
        if map.contains("tileSize") {
            let size = try map.decode(Double.self, forKey: "tileSize")
            guard let tileSize = TileSize.allCases.first(where: { Double($0.rawValue) == size }) else {
                throw Problem("map.tileSize must be 256 or 512 (got \(ScrollScriptError.format(size)))")
            }
            framing.tileSize = tileSize
        }
        if let name = try map.decodeIfPresent(String.self, forKey: "framing") {
            guard let mode = FramingMode(rawValue: name) else {
                throw Problem("map.framing must be one of \(FramingMode.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(name)')")
            }
            framing.mode = mode
        }
        if map.contains("insets") {
            framing.insets = try insets(map)
        }
        return framing
    }

    private static func insets(_ map: KeyedDecodingContainer<AnyKey>) throws -> MapInsets {
        if var list = try? map.nestedUnkeyedContainer(forKey: "insets") {
            var values: [Double] = []
            while !list.isAtEnd { values.append(try list.decode(Double.self)) }
            guard values.count == 4 else {
                throw Problem("map.insets must be [top, left, bottom, right]: 4 numbers (got \(values.count))")
            }
            return MapInsets(top: values[0], left: values[1], bottom: values[2], right: values[3])
        }
        let edges = try map.nestedContainer(keyedBy: AnyKey.self, forKey: "insets")
        try edges.rejectUnknownKeys(allowing: ["top", "left", "bottom", "right"], in: "map.insets")
        return MapInsets(
            top: try edges.decodeIfPresent(Double.self, forKey: "top") ?? 0,
            left: try edges.decodeIfPresent(Double.self, forKey: "left") ?? 0,
            bottom: try edges.decodeIfPresent(Double.self, forKey: "bottom") ?? 0,
            right: try edges.decodeIfPresent(Double.self, forKey: "right") ?? 0)
    }
}

/// One element of `events`: `{"at": T, <one action key>: …}`.
enum EventDocument {
    static let actions = ["drag", "offset", "scrollTo", "tapMarker", "autoplay", "pause", "accessibilityScroll", "end"]

    /// Decodes the event at `position`, turning any problem into a
    /// ``ScrollScriptError`` that names it (and its time, once known).
    static func decode(from decoder: any Decoder, position: Int) throws(ScrollScriptError) -> ScrollScript.Event {
        var at: Double?
        do {
            let event = try decoder.container(keyedBy: AnyKey.self)
            at = try event.decode(Double.self, forKey: "at")
            return ScrollScript.Event(at: at!, try action(in: event))
        } catch let error as DecodingError {
            throw ScrollScriptError(describe(error, below: decoder.codingPath), event: position, at: at)
        } catch let problem as Problem {
            throw ScrollScriptError(problem.reason, event: position, at: at)
        } catch {
            throw ScrollScriptError("\(error)", event: position, at: at)
        }
    }

    private static func action(in event: KeyedDecodingContainer<AnyKey>) throws -> ScrollScript.Action {
        let keys = event.allKeys.map(\.stringValue).filter { $0 != "at" && $0 != "animated" && $0 != "on" }
        if let unknown = keys.first(where: { !actions.contains($0) }) {
            throw Problem("unknown event '\(unknown)': an event is one of \(actions.joined(separator: ", "))")
        }
        guard keys.count == 1, let name = keys.first else {
            throw Problem(
                keys.isEmpty
                    ? "no event: give one of \(actions.joined(separator: ", ")) beside \"at\""
                    : "one event per entry, got \(keys.sorted().joined(separator: " and ")): split them into separate entries")
        }
        if event.contains("animated"), name != "scrollTo" {
            throw Problem("animated only applies to scrollTo")
        }
        if event.contains("on"), name != "pause" {
            throw Problem("on only applies to pause")
        }
        switch name {
        case "drag":
            let drag = try event.nestedContainer(keyedBy: AnyKey.self, forKey: "drag")
            try drag.rejectUnknownKeys(allowing: ["by", "durationMs", "velocity"], in: "drag")
            return .drag(
                by: try drag.decode(Double.self, forKey: "by"),
                durationMs: try drag.decode(Double.self, forKey: "durationMs"),
                velocity: try drag.decodeIfPresent(Double.self, forKey: "velocity"))
        case "offset":
            return .offset(try event.decode(Double.self, forKey: "offset"))
        case "scrollTo":
            return .scrollTo(
                try event.wholeNumber("scrollTo"),
                animated: try event.decodeIfPresent(Bool.self, forKey: "animated") ?? true)
        case "tapMarker":
            return .tapMarker(try event.wholeNumber("tapMarker"))
        case "autoplay":
            switch try event.decode(String.self, forKey: "autoplay") {
            case "start": return .autoplay(play: true)
            case "stop": return .autoplay(play: false)
            case let other: throw Problem("autoplay must be start or stop (got '\(other.prefix(40))')")
            }
        case "pause":
            let reason: AutoplayPauseReason
            do {
                reason = try AutoplayPauseReason(externalName: try event.decode(String.self, forKey: "pause"))
            } catch let error as AutoplayError {
                throw Problem(error.description)
            }
            guard event.contains("on") else {
                throw Problem("pause needs \"on\": true when the reason begins, false when it ends")
            }
            return .pause(reason, on: try event.decode(Bool.self, forKey: "on"))
        case "accessibilityScroll":
            let name = try event.decode(String.self, forKey: "accessibilityScroll")
            guard let direction = AccessibilityScrollDirection(rawValue: name) else {
                throw Problem("accessibilityScroll must be next or previous (got '\(name.prefix(40))')")
            }
            return .accessibilityScroll(direction)
        default:
            guard try event.decode(Bool.self, forKey: "end") else {
                throw Problem("end must be true (leave it out to run until nothing is pending)")
            }
            return .end
        }
    }
}

/// A problem found while decoding, before its event position is attached.
private struct Problem: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A key of any name, to see every key an object holds.
private struct AnyKey: CodingKey, ExpressibleByStringLiteral {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init(stringLiteral value: String) { self.stringValue = value }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer<AnyKey> {
    fileprivate func rejectUnknownKeys(allowing known: [String], in place: String) throws {
        if let unknown = allKeys.first(where: { !known.contains($0.stringValue) }) {
            throw Problem("unknown key '\(unknown.stringValue)' in \(place); known keys: \(known.joined(separator: ", "))")
        }
    }

    /// A store index: a JSON number that is whole (`2`, or `2.0`), never `2.5`.
    fileprivate func wholeNumber(_ key: AnyKey) throws -> Int {
        let value = try decode(Double.self, forKey: key)
        guard value == value.rounded(), abs(value) < 1e15 else {
            throw Problem("\(key.stringValue) must be a whole number (got \(value))")
        }
        return Int(value)
    }
}

/// A decoding error in a script's words: `drag.durationMs must be a number`.
/// The path is written relative to `base` (an event's own path).
private func describe(_ error: DecodingError, below base: [any CodingKey] = []) -> String {
    func path(_ context: DecodingError.Context, _ key: (any CodingKey)? = nil) -> String {
        let keys = context.codingPath.dropFirst(base.count) + (key.map { [$0] } ?? [])
        return keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            .joined(separator: ".").replacingOccurrences(of: ".[", with: "[")
    }
    func noun(_ type: Any.Type) -> String {
        switch type {
        case is Double.Type, is Int.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        case is [Any].Type: "an array"
        default: "an object"
        }
    }
    switch error {
    case let .typeMismatch(type, context):
        let place = path(context)
        return "\(place.isEmpty ? "the entry" : place) must be \(noun(type))"
    case let .valueNotFound(type, context):
        return "\(path(context)) must be \(noun(type)), not null"
    case let .keyNotFound(key, context):
        return "\(path(context, key)) is missing"
    case let .dataCorrupted(context):
        let place = path(context)
        return place.isEmpty ? context.debugDescription : "\(place): \(context.debugDescription)"
    @unknown default:
        return "\(error)"
    }
}
