/// The map marker to select, and the one to deselect.
public struct MarkerSelection: Hashable, Sendable {
    /// The selected store's position in the list.
    public var index: Int
    /// The selected store's id.
    public var storeId: String
    /// The previously selected position, to deselect; nil for the first
    /// selection of a list.
    public var previousIndex: Int?

    public init(index: Int, storeId: String, previousIndex: Int?) {
        self.index = index
        self.storeId = storeId
        self.previousIndex = previousIndex
    }
}
