import Foundation

/// Which of a list's stores a map tile shows: those matching every filter
/// given, read as ``StoreSearch`` reads them (a text, a category, attribute
/// values, an opening instant), without an area, ranking or page. The
/// empty filter keeps every store.
public struct StoreFilter: Sendable, Hashable, CustomStringConvertible {
    public var text: String?
    public var category: String?
    public var attributes: [StoreSearch.AttributeFilter]
    public var openAt: Date?

    public init(text: String? = nil, category: String? = nil, attributes: [StoreSearch.AttributeFilter] = [], openAt: Date? = nil) {
        self.text = text
        self.category = category
        self.attributes = attributes
        self.openAt = openAt
    }

    /// Whether it keeps every store.
    public var isEmpty: Bool { text == nil && category == nil && attributes.isEmpty && openAt == nil }

    /// The search whose candidates are the matching stores, in list order.
    package func search(list: String) -> StoreSearch {
        StoreSearch(list: list, text: text, category: category, attributes: attributes, openAt: openAt)
    }

    /// Refuses what ``StoreSearch`` refuses, in the library's words.
    package func validate() throws(CatalogError) {
        try search(list: "").validate()
    }

    /// A stable text of the filter: the key of the indexes built for it.
    public var description: String {
        var parts: [String] = []
        if let text { parts.append("q=\(text)") }
        if let category { parts.append("category=\(category)") }
        for filter in attributes { parts.append("where=\(filter.name)=\(filter.value)") }
        if let openAt { parts.append("openAt=\(openAt.timeIntervalSince1970)") }
        return parts.joined(separator: "\u{1F}")  // a unit separator: no filter text holds it
    }
}
