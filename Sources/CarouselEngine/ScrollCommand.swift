/// A programmatic scroll to a data item, as commanded (a `scrollTo` event or
/// a marker tap): where it goes and whether it animates.
public struct ScrollCommand: Hashable, Sendable {
    /// The laid-out item scrolled to (in loop mode, the twin nearest the
    /// current offset).
    public let index: Int
    /// The data index asked for.
    public let dataIndex: Int
    /// The rest offset of ``index``.
    public let targetOffset: Double
    /// Whether the scroll animates (ease-in-out over `animationMs`) or jumps.
    public let animated: Bool

    public init(index: Int, dataIndex: Int, targetOffset: Double, animated: Bool) {
        self.index = index
        self.dataIndex = dataIndex
        self.targetOffset = targetOffset
        self.animated = animated
    }
}
