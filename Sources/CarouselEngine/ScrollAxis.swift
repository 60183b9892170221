/// The direction a carousel scrolls in.
///
/// Every length and offset in the engine is measured along this axis only
/// x and widths for `horizontal`, y and heights for `vertical`
/// (the Instagram-paging article's 540-pt cells scroll vertically).
public enum ScrollAxis: String, CaseIterable, Codable, Hashable, Sendable {
    case horizontal
    case vertical
}
