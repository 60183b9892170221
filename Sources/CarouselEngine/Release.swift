/// Where a release (the end of a drag) comes to rest and how it gets there.
public struct Release: Hashable, Sendable {
    /// The unsnapped projected rest `p = x + v·d / (1 − d)`.
    public let projected: Double
    /// The offset the carousel comes to rest at.
    public let targetOffset: Double
    /// The laid-out item resting at the anchor there; nil when empty.
    public let index: Int?
    /// The data index that item shows; nil when empty.
    public let dataIndex: Int?
    /// How the carousel travels from the release offset to the target.
    public let motion: Motion.Kind

    public init(projected: Double, targetOffset: Double, index: Int?, dataIndex: Int?, motion: Motion.Kind) {
        self.projected = projected
        self.targetOffset = targetOffset
        self.index = index
        self.dataIndex = dataIndex
        self.motion = motion
    }
}
