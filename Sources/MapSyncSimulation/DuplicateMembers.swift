import Foundation
import MapSync

/// Finds a name that appears twice in one JSON object, which `JSONDecoder`
/// lets pass (the last one wins): `{"at": 0, "at": 500}` ran at 500 with no
/// word. RFC 8259 §4 leaves duplicate names' meaning open, so a script, like
/// an imported file, refuses them.
///
/// A scan of the bytes only, tracking which strings are member names; the
/// decoder still judges the syntax, so bytes that are not JSON give no
/// answer here rather than an error.
enum DuplicateMembers {
    /// The first name repeated in an object of `json`, or nil.
    static func first(in json: some Collection<UInt8>) -> String? {
        // One entry per open object or array: the names seen so far (nil
        // for an array) and whether the next string is a name.
        var scopes: [(names: Set<String>?, expectingName: Bool)] = []
        var iterator = json.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "{"): scopes.append((Set(), true))
            case UInt8(ascii: "["): scopes.append((nil, false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = scopes.popLast()
            case UInt8(ascii: ","):
                if scopes.last?.names != nil { scopes[scopes.count - 1].expectingName = true }
            case UInt8(ascii: "\""):
                var raw: [UInt8] = [byte], escaped = false, hasEscape = false
                while let next = iterator.next() {
                    raw.append(next)
                    if escaped { escaped = false; continue }
                    if next == UInt8(ascii: "\\") { escaped = true; hasEscape = true }
                    if next == UInt8(ascii: "\"") { break }
                }
                guard let scope = scopes.last, scope.names != nil, scope.expectingName else { continue }
                // Escapes spell one name many ways ("a" and "\u0061").
                let name =
                    hasEscape
                    ? (try? JSONDecoder().decode(String.self, from: Data(raw))) ?? String(decoding: raw, as: UTF8.self)
                    : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                scopes[scopes.count - 1].expectingName = false
                guard scopes[scopes.count - 1].names!.insert(name).inserted else { return name }
            default: continue
            }
        }
        return nil
    }

    /// The message for a repeated `name`.
    static func message(_ name: String) -> String {
        "duplicate member \"\(name)\": each name may appear once in an object"
    }
}
