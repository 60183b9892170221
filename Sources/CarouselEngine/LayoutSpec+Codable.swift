extension LayoutSpec: Codable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case axis, viewport, itemLength, itemFraction, spacing, sectionInset, alignment, snap, behavior
        case deceleration, loop, loopPadding, minScale, animationMs, frameMs, layoutDirection
    }

    /// The keys a layout object may hold, camelCase.
    public static let keys: Set<String> = Set(CodingKeys.allCases.map(\.stringValue))

    /// Decodes a layout object, rejecting any key it does not know.
    public init(from decoder: any Decoder) throws {
        try self.init(from: decoder, allowingKeys: [])
    }

    /// Decodes a layout object that may also hold `extraKeys` for its
    /// decoder's own use (e.g. map sync's `debounceMs` and `zoom` in a script's
    /// `layout`), rejecting any other unknown key with a message naming it:
    /// a misspelt `"itemLenght"` must not silently fall back to a default.
    public init(from decoder: any Decoder, allowingKeys extraKeys: Set<String>) throws {
        let raw = try decoder.container(keyedBy: AnyKey.self)
        if let unknown = raw.allKeys.first(where: { !Self.keys.contains($0.stringValue) && !extraKeys.contains($0.stringValue) }) {
            let known = (Self.keys.union(extraKeys)).sorted().joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                forKey: unknown, in: raw,
                debugDescription: "unknown layout key '\(unknown.stringValue)'; known keys: \(known)"
            )
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            axis: try container.decodeIfPresent(ScrollAxis.self, forKey: .axis),
            viewport: try container.decodeIfPresent(Double.self, forKey: .viewport),
            itemLength: try container.decodeIfPresent(Double.self, forKey: .itemLength),
            itemFraction: try container.decodeIfPresent(Double.self, forKey: .itemFraction),
            spacing: try container.decodeIfPresent(Double.self, forKey: .spacing),
            sectionInset: try container.decodeIfPresent(Double.self, forKey: .sectionInset),
            alignment: try container.decodeIfPresent(CardAlignment.self, forKey: .alignment),
            snap: try container.decodeIfPresent(SnapRule.self, forKey: .snap),
            behavior: try container.decodeIfPresent(ScrollBehavior.self, forKey: .behavior),
            deceleration: try container.decodeIfPresent(Deceleration.self, forKey: .deceleration),
            loop: try container.decodeIfPresent(Bool.self, forKey: .loop),
            loopPadding: try container.decodeIfPresent(Int.self, forKey: .loopPadding),
            minScale: try container.decodeIfPresent(Double.self, forKey: .minScale),
            animationMs: try container.decodeIfPresent(Double.self, forKey: .animationMs),
            frameMs: try container.decodeIfPresent(Double.self, forKey: .frameMs),
            layoutDirection: try Self.decodeDirection(from: container)
        )
    }

    /// The `layoutDirection` key, if present. A misspelt direction names the
    /// key and the values it takes, rather than the decoder's generic "cannot
    /// initialize LayoutDirection": `"rtl"` is the likeliest mistake.
    private static func decodeDirection(from container: KeyedDecodingContainer<CodingKeys>) throws -> LayoutDirection? {
        guard let text = try container.decodeIfPresent(String.self, forKey: .layoutDirection) else { return nil }
        guard let direction = LayoutDirection(rawValue: text) else {
            let allowed = LayoutDirection.allCases.map(\.rawValue).joined(separator: " or ")
            throw DecodingError.dataCorruptedError(
                forKey: .layoutDirection, in: container,
                debugDescription: "layoutDirection must be \(allowed) (got '\(text)')"
            )
        }
        return direction
    }

    /// Encodes the settings that are set, with the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(axis, forKey: .axis)
        try container.encodeIfPresent(viewport, forKey: .viewport)
        try container.encodeIfPresent(itemLength, forKey: .itemLength)
        try container.encodeIfPresent(itemFraction, forKey: .itemFraction)
        try container.encodeIfPresent(spacing, forKey: .spacing)
        try container.encodeIfPresent(sectionInset, forKey: .sectionInset)
        try container.encodeIfPresent(alignment, forKey: .alignment)
        try container.encodeIfPresent(snap, forKey: .snap)
        try container.encodeIfPresent(behavior, forKey: .behavior)
        try container.encodeIfPresent(deceleration, forKey: .deceleration)
        try container.encodeIfPresent(loop, forKey: .loop)
        try container.encodeIfPresent(loopPadding, forKey: .loopPadding)
        try container.encodeIfPresent(minScale, forKey: .minScale)
        try container.encodeIfPresent(animationMs, forKey: .animationMs)
        try container.encodeIfPresent(frameMs, forKey: .frameMs)
        try container.encodeIfPresent(layoutDirection, forKey: .layoutDirection)
    }

    /// A key of any name, to see every key an object holds.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
