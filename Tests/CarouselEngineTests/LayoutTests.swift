import CarouselEngine
import Testing

@Suite("Layout geometry and validation")
struct LayoutTests {
    @Test func restsArePagesApartAndOffsetsSpanFirstToLastRest() throws {
        let layout = try makeLayout(viewport: 390, itemLength: .points(300), spacing: 12, dataCount: 10)
        #expect(layout.page == 312)
        #expect(layout.rest(4) == 1248)
        #expect(layout.offsetRange == 0...(9 * 312))
        #expect(layout.contentLength == 9 * 312 + 390)
    }

    @Test func centreAlignmentInsetsBothEndsByHalfTheSlack() throws {
        let layout = try makeLayout(viewport: 390, itemLength: .points(300), alignment: .center)
        #expect(layout.leadingInset == 45)
        #expect(layout.trailingInset == 45)
        // Every item, the last included, is centred at its rest.
        for item in [0, 4, 9] {
            let centre = layout.rest(item) + layout.leadingInset + layout.itemLength / 2
            #expect(centre == layout.rest(item) + layout.viewport / 2)
        }
    }

    @Test func leadingAlignmentUsesTheSectionInsetAndPadsTheEnd() throws {
        let layout = try makeLayout(itemLength: .points(300), sectionInset: 16, alignment: .leading)
        #expect(layout.leadingInset == 16)
        #expect(layout.trailingInset == 390 - 16 - 300)
        // The content ends W past the last rest, so the last item can rest too.
        let lastItemEnd = layout.rest(9) + layout.leadingInset + layout.itemLength
        #expect(lastItemEnd + layout.trailingInset == layout.contentLength)
    }

    @Test func fractionalItemLengthIsAShareOfTheViewport() throws {
        let layout = try makeLayout(viewport: 400, itemLength: .fraction(0.8))
        #expect(layout.itemLength == 320)
    }

    @Test func focusIsTheNearestRestClampedToTheItems() throws {
        let layout = try makeLayout(itemLength: .points(100), spacing: 0, dataCount: 5)
        #expect(layout.focusedItem(at: 149.99) == 1)
        #expect(layout.focusedItem(at: 150) == 2, "halves round away from zero")
        #expect(layout.focusedItem(at: -80) == 0)
        #expect(layout.focusedItem(at: 10_000) == 4)
        #expect(layout.focusedItem(at: 1e300) == 4, "a huge offset must not trap Int(_:)")
    }

    @Test func emptyCarouselHasNoFocusNothingVisibleAndRestsAtZero() throws {
        let layout = try makeLayout(dataCount: 0, loop: true)
        #expect(layout.itemCount == 0 && layout.loop == nil)
        #expect(layout.focusedItem(at: 0) == nil)
        #expect(layout.visibleItems(at: 0).isEmpty)
        #expect(layout.offsetRange == 0...0)
        let release = try layout.release(at: 0, velocity: 3, dragStart: 0)
        #expect(release.index == nil && release.targetOffset == 0)

        var scroller = try CarouselScroller(layout: layout)
        try scroller.beginDrag(at: 0)
        try scroller.drag(translation: 50, at: 10)
        #expect(scroller.offset == 0)
        #expect(throws: ScrollError.itemOutOfRange(index: 0, dataCount: 0)) {
            try scroller.scroll(toItem: 0, animated: true, at: 20)
        }
    }

    @Test(arguments: [
        ("viewport", LayoutSpec(viewport: -390)),
        ("viewport", LayoutSpec(viewport: .nan)),
        ("viewport", LayoutSpec(viewport: 0)),
        ("itemLength", LayoutSpec(itemLength: -1)),
        ("itemLength", LayoutSpec(itemLength: .infinity)),
        ("itemLength", LayoutSpec(itemLength: 300, itemFraction: 0.8)),
        ("itemFraction", LayoutSpec(itemFraction: 0)),
        ("itemFraction", LayoutSpec(itemFraction: 1.2)),
        ("spacing", LayoutSpec(spacing: -12)),
        ("sectionInset", LayoutSpec(sectionInset: -.infinity)),
        ("minScale", LayoutSpec(minScale: 1.5)),
        ("minScale", LayoutSpec(minScale: -0.1)),
        ("loopPadding", LayoutSpec(loop: true, loopPadding: 0)),
        ("loopPadding", LayoutSpec(loopPadding: 3)),
        ("animationMs", LayoutSpec(animationMs: -1)),
        ("frameMs", LayoutSpec(frameMs: 0)),
    ])
    func invalidSettingIsAnErrorNamingIt(parameter: String, spec: LayoutSpec) {
        #expect {
            try spec.layout(dataCount: 5)
        } throws: { error in
            let error = try #require(error as? LayoutError)
            return error.parameter == parameter && error.description.hasPrefix("invalid layout: \(parameter) ")
        }
    }

    @Test func negativeCountIsAnError() {
        #expect(throws: LayoutError("count", "must be a whole number in 0...1000000000000", -1)) {
            try LayoutSpec().layout(dataCount: -1)
        }
    }

    @Test func nonFiniteReleaseInputIsAnError() throws {
        let layout = try makeLayout()
        #expect(throws: LayoutError.self) { try layout.release(at: .nan, velocity: 0, dragStart: 0) }
        #expect(throws: LayoutError.self) { try layout.release(at: 0, velocity: .infinity, dragStart: 0) }
        #expect(throws: LayoutError.self) { try layout.release(at: 0, velocity: 0, dragStart: -.infinity) }
    }

    @Test func decelerationParsesPresetsAndRates() throws {
        #expect(try Deceleration(parsing: "normal") == .normal)
        #expect(try Deceleration(parsing: "fast").rate == 0.99)
        #expect(try Deceleration(parsing: "0.995").rate == 0.995)
        #expect(throws: LayoutError.self) { try Deceleration(parsing: "slow") }
        #expect(throws: LayoutError.self) { try Deceleration(parsing: "0") }
        #expect(throws: LayoutError.self) { try Deceleration(parsing: "nan") }
    }
}
