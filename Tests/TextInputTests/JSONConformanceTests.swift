import Foundation
import TestSupport
import Testing

@testable import TextInput

/// The JSON reader against JSONTestSuite (Nicolas Seriot, MIT; its cases in
/// `Tests/Fixtures/JSONTestSuite`): every `y_` document is accepted, every
/// `n_` one refused, and an `i_` one (left to the implementation) either,
/// without a trap. Both ways the package reads JSON are checked: a
/// ``JSONValue`` read whole, and a value stepped over as an import steps
/// over the members it does not keep.
@Suite struct JSONConformanceTests {
    static let folder = Paths.fixtures.appendingPathComponent("JSONTestSuite/test_parsing")

    static func cases(_ prefix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
    }

    /// Whether `bytes` is one JSON document, read whole as a ``JSONValue``.
    /// Duplicate names are valid syntax (RFC 8259 §4 leaves their meaning
    /// open); our readers refuse them as a rule of their own, tested apart.
    static func readsWhole(_ bytes: [UInt8]) -> Bool {
        (try? JSONValue.parse(bytes, refusingDuplicateMembers: false)) != nil
    }

    /// Whether `bytes` is one JSON document, stepped over by `skipValue`.
    static func readsSkipping(_ bytes: [UInt8]) -> Bool {
        var tokenizer = JSONTokenizer(reader: ByteReader(bytes: bytes, name: "case"))
        tokenizer.refusesDuplicateMembers = false
        do throws(JSONTokenizer.Failure) {
            try tokenizer.skipValue()
            return try tokenizer.skipWhitespace() == nil
        } catch {
            return false
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test func theSuiteIsThere() throws {
        #expect(try Self.cases("y_").count == 95)
        #expect(try Self.cases("n_").count == 188)
        #expect(try Self.cases("i_").count == 35)
    }

    @Test func acceptsEveryValidDocument() throws {
        for name in try Self.cases("y_") {
            let bytes = try Self.bytes(name)
            #expect(Self.readsWhole(bytes), "\(name) refused, read whole")
            #expect(Self.readsSkipping(bytes), "\(name) refused, skipped")
        }
    }

    @Test func refusesEveryInvalidDocument() throws {
        for name in try Self.cases("n_") {
            let bytes = try Self.bytes(name)
            #expect(!Self.readsWhole(bytes), "\(name) accepted, read whole")
            #expect(!Self.readsSkipping(bytes), "\(name) accepted, skipped")
        }
    }

    /// Either answer is allowed; both readers give the same one, and the
    /// choices are the ones documented: numbers of any size are accepted
    /// as text (their reader decides whether they fit), and so is nesting
    /// up to 512 levels; lone surrogates, invalid UTF-8, UTF-16 and a byte
    /// order mark (in a document read whole) are refused.
    @Test func decidesTheImplementationDefinedCasesAlikeBothWays() throws {
        for name in try Self.cases("i_") {
            let bytes = try Self.bytes(name)
            let whole = Self.readsWhole(bytes)
            #expect(whole == Self.readsSkipping(bytes), "\(name): the two readers disagree")
            if name.hasPrefix("i_number_") || name == "i_structure_500_nested_arrays.json" {
                #expect(whole, "\(name): a number is kept as written")
            } else {
                #expect(!whole, "\(name) accepted")
            }
        }
    }

    @Test func refusesDuplicateNamesByDefaultWithTheirPosition() throws {
        let document = Array(#"{"a": 1,"#.utf8) + [0x0A] + Array(#"  "b": {"c": 1, "c": 2}}"#.utf8)
        #expect(throws: JSONTokenizer.Failure.self) { try JSONValue.parse(document) }
        do {
            _ = try JSONValue.parse(document)
        } catch {
            guard case .duplicateMember(let line, _, let name) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 2)
            #expect(name == "c")
        }
    }

    @Test func syntaxErrorsNameTheirLineAndColumn() throws {
        let document = Array("{\"events\": [\n  {\"at\": 0, \"end\": true}\n    oops\n]}\n".utf8)
        do {
            _ = try JSONValue.parse(document)
            Issue.record("accepted")
        } catch {
            guard case .syntax(let line, let column, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(line == 3)
            #expect(column == 5)
            #expect(reason == "expected ',' or ']' after an element, found 'o'")
        }
    }
}
