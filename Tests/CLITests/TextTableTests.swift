import Testing

@testable import CarouselCommandLine

@Suite("Text tables")
struct TextTableTests {
    @Test("columns pad to the widest cell; numbers align right")
    func alignsColumns() {
        var table = TextTable([.init(title: "id"), .init(title: "count", alignment: .right)])
        table.append(["seoul", "44"])
        table.append(["ko", "6"])
        #expect(
            table.render() == """
                id     count
                -----  -----
                seoul     44
                ko         6
                """)
    }

    @Test("Hangul counts two cells wide, so Korean names stay aligned")
    func wideCharactersTakeTwoCells() {
        #expect("하늘커피".terminalWidth == 8)
        #expect("Café".terminalWidth == 4)
        var table = TextTable([.init(title: "name"), .init(title: "lat", alignment: .right)])
        table.append(["하늘커피", "37.5"])
        table.append(["Haneul", "37.52"])
        #expect(
            table.render() == """
                name        lat
                --------  -----
                하늘커피   37.5
                Haneul    37.52
                """)
    }
}
