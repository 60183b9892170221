import TestSupport
import Testing

@testable import StoreCatalog

/// The `stores.attributes` column: sorted keys, escapes, and a round trip.
@Suite("Attributes JSON")
struct AttributesJSONTests {
    @Test("keys come out sorted and values escaped")
    func sortedAndEscaped() {
        let attributes: [String: AttributeValue] = ["b": "2", "a": "say \"hi\"", "c": "tab\there\\", "가": "서울", "ctrl": "\u{1}"]
        #expect(
            AttributesJSON.encode(attributes)
                == #"{"a":"say \"hi\"","b":"2","c":"tab\there\\","ctrl":"\u0001","가":"서울"}"#)
        #expect(AttributesJSON.encode([:]) == nil)
    }

    @Test("any attributes read back as written, in the order of their keys", arguments: [UInt64(1), 2, 3, 4])
    func roundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("ab\"\\\n\t é서")
        for count in 0...12 {
            var attributes: [String: AttributeValue] = [:]
            while attributes.count < count {
                let key = String((0..<Int.random(in: 1...4, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
                attributes[key] = .string(
                    String(
                        (0..<Int.random(in: 0...6, using: &random)).map { _ in
                            alphabet.randomElement(using: &random)!
                        }))
            }
            var bytes: [UInt8] = []
            AttributesJSON.append(attributes, to: &bytes)
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text == (AttributesJSON.encode(attributes) ?? ""), "seed \(seed), \(count) keys")
            guard count > 0 else { continue }
            #expect(try AttributesJSON.decode(text) == attributes, "seed \(seed): \(text)")
            // The members in the order of their keys, each quoted alone.
            let members = attributes.sorted { $0.key < $1.key }.map { key, value in
                var member = ""
                AttributesJSON.appendQuoted(key, to: &member)
                member += ":"
                AttributesJSON.appendValue(value, to: &member)
                return member
            }
            #expect(text == "{" + members.joined(separator: ",") + "}", "seed \(seed)")
        }
    }
}
