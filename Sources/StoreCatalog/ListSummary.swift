/// A store list and how many stores it holds.
public struct ListSummary: Sendable, Hashable, Codable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}
