import Foundation
import StoreCatalog
import TestSupport
import Testing

/// Chunk boundaries may fall anywhere — inside a quote, between CR and LF,
/// inside a multi-byte character, a BOM or a JSON escape — and must never
/// change what is read.
@Suite("Chunk size independence")
struct ChunkingFormatTests {
    /// A random CSV whose fields use every quoting rule.
    static func randomCSV(_ random: inout SplitMix64) -> [UInt8] {
        let pieces = ["a", "Z", "9", " ", ",", "\"", "\n", "\r\n", "하늘", "é", "\t", "-", "."]
        func field() -> String {
            let length = Int.random(in: 0...6, using: &random)
            let text = (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined()
            let mustQuote = text.unicodeScalars.contains { ",\"\n\r".unicodeScalars.contains($0) }
            return mustQuote || Bool.random(using: &random)
                ? "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                : text
        }
        func coordinate() -> String {
            Bool.random(using: &random) ? String(Double.random(in: -95...95, using: &random)) : field()
        }
        let newline = Bool.random(using: &random) ? "\r\n" : "\n"
        var text = "id,name,latitude,longitude,note" + newline
        for _ in 0..<Int.random(in: 0...30, using: &random) {
            text += [field(), field(), coordinate(), coordinate(), field()].joined(separator: ",")
            // A short or long row now and then, and blank lines.
            if Int.random(in: 0..<10, using: &random) == 0 { text += "," + field() }
            text += newline
            if Int.random(in: 0..<8, using: &random) == 0 { text += newline }
        }
        if Bool.random(using: &random) { text += "tail,\"unterminated" }
        let bom: [UInt8] = Bool.random(using: &random) ? [0xEF, 0xBB, 0xBF] : []
        return bom + Array(text.utf8)
    }

    @Test func randomCSVReadsTheSameWithAnyChunkSize() throws {
        for seed in UInt64(1)...150 {
            var random = SplitMix64(seed: seed)
            let bytes = Self.randomCSV(&random)
            let whole = try readRows(bytes: bytes, chunkSize: 1 << 16)
            for chunkSize in [1, 2, 3, Int.random(in: 4...64, using: &random)] {
                let chunked = try readRows(bytes: bytes, chunkSize: chunkSize)
                #expect(chunked == whole, "seed \(seed), chunk size \(chunkSize)")
            }
        }
    }

    @Test(arguments: ["seoul-coffee.csv", "seoul-coffee-ko.csv", "bad-stores.csv", "seoul-coffee.geojson"])
    func sampleFilesReadTheSameWithAnyChunkSize(name: String) throws {
        let url = Paths.sampleData.appendingPathComponent(name)
        let format = try #require(ImportFormat(path: name))
        let whole = try readRows(url, as: format)
        var random = SplitMix64(seed: 42)
        for chunkSize in [1, 2, 3, 7, Int.random(in: 8...512, using: &random)] {
            #expect(try readRows(url, as: format, chunkSize: chunkSize) == whole, "chunk size \(chunkSize)")
        }
    }

    @Test func jsonWithEscapesReadsTheSameWithAnyChunkSize() throws {
        let json =
            #"[{"id":"a","name":"\uD83D\uDE00 \u00e9\n\"q\"","lat":"1.5","lng":2,"extra":{"k":[1,{"z":null}]}},"#
            + #" {"id":"b","name":"하늘","lat":3,"lng":4}]"#
        let whole = try readRows(json, as: .json)
        #expect(whole.stores.count == 2)
        for chunkSize in 1...9 {
            #expect(try readRows(json, as: .json, chunkSize: chunkSize) == whole, "chunk size \(chunkSize)")
        }
    }
}
