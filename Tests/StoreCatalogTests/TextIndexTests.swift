import TestSupport
import Testing

@testable import StoreCatalog

/// Substring search over a list's folded text.
@Suite("Text index")
struct TextIndexTests {
    static let index = TextIndex([
        ["Café Mocha", "12 Rue de la Paix", "Coffee shop"],
        ["Bäckerei Straße", "Hauptstraße 5", "Bakery"],
        ["하늘커피 강남역점", "서울 강남구 강남대로 396", "카페"],
        ["Ｔｏｋｙｏ Ramen", nil, "Noodles"],
        ["Plain", "no match here", nil],
    ])

    @Test(
        "case, accents and width are ignored; Korean two-syllable queries match",
        arguments: [
            ("cafe", [0]), ("CAFÉ", [0]), ("strasse", [1]), ("STRASSE 5", [1]), ("강남", [2]), ("커피 강남", [2]),
            ("tokyo", [3]), ("ramen", [3]), ("bakery", [1]), ("a", [0, 1, 3, 4]), ("shop", [0]), ("zzz", []),
        ] as [(String, [Int])])
    func matches(query: String, expected: [Int]) {
        #expect(Self.index.positions(containing: query) == expected)
    }

    @Test("a match never spans two fields or two stores")
    func matchesStayInsideOneField() {
        // "Mocha" ends the name and "12" starts the address; "shop" ends store 0 and "Bäckerei" starts store 1.
        #expect(Self.index.positions(containing: "mocha12") == [])
        #expect(Self.index.positions(containing: "mocha 12") == [])
        #expect(Self.index.positions(containing: "shopbäckerei") == [])
    }

    @Test("a store matched in several fields is listed once; an empty query lists all")
    func eachStoreOnce() {
        #expect(Self.index.positions(containing: "stra") == [1])
        #expect(Self.index.positions(containing: "") == [0, 1, 2, 3, 4])
        #expect(TextIndex([[String?]]()).positions(containing: "a") == [])
    }

    @Test("the index answers as a plain folded scan over many stores")
    func agreesWithAScan() {
        var random = SplitMix64(seed: 27)
        let alphabet = Array("abcdéÉßsS 강남역 ".unicodeScalars)
        let texts: [[String?]] = (0..<2_000).map { _ in
            (0..<3).map { _ in
                String(
                    String.UnicodeScalarView(
                        (0..<Int.random(in: 0..<12, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] }))
            }
        }
        let index = TextIndex(texts)
        for query in ["a", "é", "ss", "강남", "b c", "역 ", "dé", "abc"] {
            let folded = SearchFolding.fold(query)
            let expected = texts.indices.filter { texts[$0].contains { SearchFolding.fold($0 ?? "").contains(folded) } }
            #expect(index.positions(containing: query) == expected, "\(query)")
        }
    }
}
