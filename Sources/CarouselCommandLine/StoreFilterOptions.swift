import ArgumentParser
import Foundation
import StoreCatalog

/// `--text`, `--category`, `--where` and `--open-at`: which stores of a
/// list a command looks at, read one way for `carousel search` and
/// `carousel tiles`.
struct StoreFilterOptions: ParsableArguments {
    @Option(help: "A part of the name, address or category.")
    var text: String?

    @Option(help: "The category, whole (case and accents ignored).")
    var category: String?

    @Option(name: .customLong("where"), help: "KEY=VALUE: an attribute that must have this value (repeatable).")
    var filters: [String] = []

    @Option(name: .customLong("open-at"), help: "An ISO 8601 instant with its offset (2026-11-24T09:30:00+09:00) or 'now'.")
    var openAt: String?

    /// The filter the flags describe, or a one-line reason naming the flag.
    func filter() throws -> StoreFilter {
        if let text, text.isEmpty { throw ValidationError("--text is empty") }
        if let text, text.count > StoreSearch.maximumTextLength {
            throw ValidationError("--text is longer than \(StoreSearch.maximumTextLength) characters")
        }
        let attributes = try filters.map { text -> StoreSearch.AttributeFilter in
            guard let filter = StoreSearch.AttributeFilter(parsing: text) else {
                throw ValidationError("--where takes KEY=VALUE (got '\(text)')")
            }
            return filter
        }
        return StoreFilter(text: text, category: category, attributes: attributes, openAt: try openAt.map(Self.instant))
    }

    /// `--open-at`'s instant (``StoreSearch/instant(parsing:now:)``).
    static func instant(_ text: String) throws -> Date {
        guard let date = StoreSearch.instant(parsing: text) else {
            throw ValidationError("--open-at takes an ISO 8601 instant with its offset, such as 2026-11-24T09:30:00+09:00, or 'now' (got '\(text)')")
        }
        return date
    }
}
