import CarouselEngine
import Foundation
import Testing

@Suite("LayoutSpec: defaults, presets, decoding")
struct LayoutSpecTests {
    @Test func defaultsAreAnIPhoneWideGroupPagingCentredCarousel() throws {
        let layout = try LayoutSpec().layout(dataCount: 7)
        #expect(layout.axis == .horizontal && layout.viewport == 390 && layout.itemLength == 300)
        #expect(layout.spacing == 12 && layout.sectionInset == 0 && layout.minScale == 0.7)
        #expect(layout.alignment == .center && layout.snap == .single && layout.deceleration == .fast)
        #expect(layout.animationMs == 300 && layout.frameMs == 1000.0 / 60)
        #expect(layout.loop == nil && layout.isScrollEnabled)
    }

    @Test(arguments: [
        (ScrollBehavior.groupPagingCentered, CardAlignment.center, SnapRule.single, Deceleration.fast),
        (.groupPaging, .leading, .single, .fast),
        (.continuousGroupLeadingBoundary, .leading, .nearest, .normal),
        (.paging, .leading, .page, .fast),
        (.continuous, .leading, .free, .normal),
    ])
    func presetsMirrorUIKit(behavior: ScrollBehavior, alignment: CardAlignment, snap: SnapRule, deceleration: Deceleration) throws {
        let layout = try LayoutSpec(behavior: behavior).layout(dataCount: 3)
        #expect(layout.alignment == alignment && layout.snap == snap && layout.deceleration == deceleration)
    }

    @Test func explicitSettingsOverrideThePresetsParts() throws {
        let spec = LayoutSpec(
            alignment: .leading, snap: .nearest, behavior: .groupPagingCentered,
            deceleration: try Deceleration(rate: 0.995))
        let layout = try spec.layout(dataCount: 3)
        #expect(layout.alignment == .leading && layout.snap == .nearest && layout.deceleration.rate == 0.995)
    }

    @Test func decodesCamelCaseKeysAndDecelerationSpellings() throws {
        let json = #"""
            {"axis": "vertical", "viewport": 844, "itemFraction": 0.64, "spacing": 0, "sectionInset": 8,
             "alignment": "leading", "snap": "velocity", "behavior": "paging", "deceleration": 0.995,
             "loop": true, "loopPadding": 1, "minScale": 0.5, "animationMs": 250, "frameMs": 8}
            """#
        let spec = try JSONDecoder().decode(LayoutSpec.self, from: Data(json.utf8))
        #expect(spec.axis == .vertical && spec.itemFraction == 0.64 && spec.loopPadding == 1)
        let layout = try spec.layout(dataCount: 4)
        #expect(layout.itemLength == 844 * 0.64 && layout.snap == .velocity && layout.deceleration.rate == 0.995)
        #expect(layout.itemCount == 6 && layout.frameMs == 8)
        #expect(try decode(#"{"deceleration": "fast"}"#).deceleration == .fast)
        #expect(try decode(#"{"deceleration": "0.9"}"#).deceleration?.rate == 0.9)
        // Round trip through the encoder keeps every setting.
        #expect(try JSONDecoder().decode(LayoutSpec.self, from: JSONEncoder().encode(spec)) == spec)
    }

    @Test func unknownKeysAreRejectedByName() throws {
        #expect {
            try decode(#"{"viewport": 390, "itemLenght": 300}"#)
        } throws: { error in
            "\(error)".contains("unknown layout key 'itemLenght'")
        }
        #expect(throws: DecodingError.self) { try decode(#"{"deceleration": "slow"}"#) }
        #expect(throws: DecodingError.self) { try decode(#"{"deceleration": 1.5}"#) }
    }

    @Test func aDecoderCanAllowItsOwnExtraKeys() throws {
        /// A script's layout object: the engine's keys plus map sync's.
        struct ScriptLayout: Decodable {
            var spec: LayoutSpec
            var debounceMs: Double?
            enum Keys: String, CodingKey { case debounceMs }
            init(from decoder: any Decoder) throws {
                spec = try LayoutSpec(from: decoder, allowingKeys: ["debounceMs", "zoom"])
                debounceMs = try decoder.container(keyedBy: Keys.self).decodeIfPresent(Double.self, forKey: .debounceMs)
            }
        }
        let json = #"{"viewport": 390, "behavior": "groupPagingCentered", "debounceMs": 250, "zoom": 16}"#
        let script = try JSONDecoder().decode(ScriptLayout.self, from: Data(json.utf8))
        #expect(script.spec == LayoutSpec(viewport: 390, behavior: .groupPagingCentered))
        #expect(script.debounceMs == 250)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ScriptLayout.self, from: Data(#"{"debounce": 250}"#.utf8))
        }
    }

    private func decode(_ json: String) throws -> LayoutSpec {
        try JSONDecoder().decode(LayoutSpec.self, from: Data(json.utf8))
    }
}
