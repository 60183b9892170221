import CarouselEngine
import MapCamera
import MapSync
import Testing

/// Insets by leading and trailing edge (issue 44): resolved to left and
/// right by the layout direction, as `NSDirectionalEdgeInsets` is.
@Suite struct LeadingTrailingInsetsTests {
    @Test func leadingIsLeftInLeftToRightAndRightInRightToLeft() {
        let ltr = MapInsets(top: 10, leading: 80, bottom: 240, trailing: 16, layoutDirection: .leftToRight)
        #expect(ltr == MapInsets(top: 10, left: 80, bottom: 240, right: 16))
        let rtl = MapInsets(top: 10, leading: 80, bottom: 240, trailing: 16, layoutDirection: .rightToLeft)
        #expect(rtl == MapInsets(top: 10, left: 16, bottom: 240, right: 80))
        for direction in LayoutDirection.allCases {
            let insets = MapInsets(leading: 80, trailing: 16, layoutDirection: direction)
            #expect(insets.leading(in: direction) == 80 && insets.trailing(in: direction) == 16)
            #expect(insets.top == 0 && insets.bottom == 0)
        }
    }

    @Test func theLeftAndRightInitializerStillWorks() {
        let insets = MapInsets(top: 1, left: 2, bottom: 3, right: 4)
        #expect(insets.leading(in: .leftToRight) == 2 && insets.leading(in: .rightToLeft) == 4)
        #expect(insets.trailing(in: .leftToRight) == 4 && insets.trailing(in: .rightToLeft) == 2)
    }
}
