import CarouselEngine

/// What a screen reader speaks for a settled page: the store's index and the
/// app's template filled in for it ("Store 3 of 44, Haneul Coffee Cheongdam,
/// open until 22:00, 350 m").
///
/// An app posts ``text`` with `UIAccessibility.post(notification:
/// .pageScrolled, argument:)` and answers it from
/// `accessibilityScrollStatus(for:)`; SwiftUI and TalkBack announce it as
/// the page's label. The view model sends one per settled page, none
/// during a drag, and the same one again when an accessibility page action
/// finds the carousel at an end (how VoiceOver users hear the end).
public struct AccessibilityStatus: Hashable, Sendable {
    /// The store's position in the list.
    public let index: Int
    /// The spoken status.
    public let text: String

    public init(index: Int, text: String) {
        self.index = index
        self.text = text
    }
}

/// The localized words about a store that a status template's `{name}`,
/// `{hours}` and `{distance}` stand for; the app formats them (its locale,
/// its units), the view model only places them.
public struct StoreStatusDetails: Hashable, Sendable {
    /// The store's name; nil: its id.
    public var name: String?
    /// "open until 22:00"; nil: empty.
    public var hours: String?
    /// "350 m"; nil: empty.
    public var distance: String?

    public init(name: String? = nil, hours: String? = nil, distance: String? = nil) {
        self.name = name
        self.hours = hours
        self.distance = distance
    }
}

extension StoreDirectory {
    /// No details: `{name}` says the store's id, `{hours}` and `{distance}`
    /// nothing. A directory that knows its stores' names answers
    /// `statusDetails(at:)` itself.
    public func statusDetails(at index: Int) throws -> StoreStatusDetails { StoreStatusDetails() }
}

extension StatusTemplate {
    /// The status of store `index` of `stores`, with the directory's
    /// details. A lookup that fails leaves its words out rather than the
    /// status: the position is still worth hearing.
    func status(of index: Int, in stores: any StoreDirectory) -> String {
        let id = (try? stores.pin(at: index).id) ?? ""
        let details = (try? stores.statusDetails(at: index)) ?? StoreStatusDetails()
        return status([
            .position: String(index + 1), .count: String(stores.count), .name: details.name ?? id, .id: id,
            .hours: details.hours ?? "", .distance: details.distance ?? "",
        ])
    }
}
