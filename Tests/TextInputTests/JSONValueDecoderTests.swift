import Foundation
import Testing

@testable import TextInput

/// The decoder over our own parse answers as `JSONDecoder` does, so the
/// `Decodable` types keep their messages.
@Suite struct JSONValueDecoderTests {
    struct Point: Decodable, Equatable {
        var x: Double
        var label: String?
        var count: Int?
        var tags: [String]?
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try T(from: JSONValueDecoder(try JSONValue.parse(text.utf8)))
    }

    @Test func decodesWhatJSONDecoderDecodes() throws {
        let texts = [
            #"{"x": 1.5, "label": "café", "count": 3, "tags": ["a", "b"]}"#,
            #"{"x": -2e3, "label": null}"#,
            #"{"x": 0, "count": 2.0}"#,
        ]
        for text in texts {
            #expect(try Self.decode(Point.self, text) == (try JSONDecoder().decode(Point.self, from: Data(text.utf8))), "\(text)")
        }
    }

    @Test func throwsTheSameKindOfErrorAtTheSamePath() throws {
        let cases: [(String, String)] = [
            (#"{"x": "1"}"#, "typeMismatch x"),
            (#"{"x": null}"#, "valueNotFound x"),
            (#"{"label": "a"}"#, "keyNotFound x"),
            (#"{"x": 1, "tags": ["a", 2]}"#, "typeMismatch tags.Index 1"),
            (#"{"x": 1, "count": 2.5}"#, "dataCorrupted count"),
            (#"{"x": 1e400}"#, "dataCorrupted x"),
            (#"[1]"#, "typeMismatch "),
        ]
        func summary(_ error: any Error) -> String {
            func path(_ context: DecodingError.Context) -> String {
                context.codingPath.map(\.stringValue).joined(separator: ".")
            }
            switch error as? DecodingError {
            case .typeMismatch(_, let context)?: return "typeMismatch \(path(context))"
            case .valueNotFound(_, let context)?: return "valueNotFound \(path(context))"
            case .keyNotFound(let key, _)?: return "keyNotFound \(key.stringValue)"
            case .dataCorrupted(let context)?: return "dataCorrupted \(path(context))"
            default: return "\(error)"
            }
        }
        for (text, expected) in cases {
            do {
                _ = try Self.decode(Point.self, text)
                Issue.record("\(text) decoded")
            } catch {
                #expect(summary(error) == expected, "\(text)")
            }
        }
    }

    @Test func aMissingValueIsNilAndNullIsNilForAnOptional() throws {
        #expect(try Self.decode(Point.self, #"{"x": 1}"#).label == nil)
        #expect(try Self.decode(Point.self, #"{"x": 1, "count": null}"#).count == nil)
    }
}
