/// The text a screen reader speaks for a carousel's page, built from a
/// template the app localizes: `"Store {position} of {count}, {name}"`.
///
/// UIKit reads a scroll view's page with `accessibilityScrollStatus(for:)`
/// and speaks what `UIAccessibility.post(notification: .pageScrolled,
/// argument:)` carries after a three-finger swipe; TalkBack speaks a
/// `CollectionItemInfo`'s position the same way. Hearing the same status
/// twice is how their users learn they reached an end, so the status is a
/// pure function of the page: the same page, the same words.
///
/// Placeholders are names in braces; each is one ``Placeholder``. A template
/// is checked when it is made, so a misspelt `{nmae}` is an error in the
/// app's (or the script's) own words, never a status with a hole in it.
/// A `{` always opens a placeholder: there is no escape, as a status has no
/// use for a literal brace.
public struct StatusTemplate: Hashable, Sendable, CustomStringConvertible {
    /// What a placeholder stands for.
    public enum Placeholder: String, CaseIterable, Hashable, Sendable {
        /// The page's position from 1 (`3` for the third card), as "Page 3 of
        /// 12" counts.
        case position
        /// The number of pages (stores) in the carousel.
        case count
        /// The store's name; its id when the app gives none.
        case name
        /// The store's id.
        case id
        /// The app's text for the store's opening hours ("open until 22:00");
        /// empty when it gives none.
        case hours
        /// The app's text for the distance to the store ("350 m"); empty when
        /// it gives none.
        case distance
    }

    /// One piece of a template: text as written, or a placeholder.
    enum Part: Hashable, Sendable {
        case text(String)
        case placeholder(Placeholder)
    }

    /// The template as written.
    public let text: String
    let parts: [Part]

    /// The template used when the app gives none: `Store {position} of {count}, {name}`.
    public static let standard = StatusTemplate(checked: "Store {position} of {count}, {name}")

    /// Checks `text` and keeps it.
    ///
    /// - Throws: ``StatusTemplateError`` for an unknown placeholder or a `{`
    ///   that is never closed.
    public init(_ text: String) throws(StatusTemplateError) {
        self.text = text
        parts = try Self.parse(text)
    }

    private init(checked text: String) {
        self.text = text
        // The standard template's placeholders are all known.
        parts = (try? Self.parse(text)) ?? [.text(text)]
    }

    public var description: String { text }

    /// The placeholders the template uses, in order.
    public var placeholders: [Placeholder] {
        parts.compactMap { part in
            if case .placeholder(let placeholder) = part { placeholder } else { nil }
        }
    }

    /// The status with each placeholder replaced by its value in `values`
    /// (an empty string for one not given).
    public func status(_ values: [Placeholder: String]) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .placeholder(let placeholder): result += values[placeholder] ?? ""
            }
        }
        return result
    }

    private static func parse(_ text: String) throws(StatusTemplateError) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}") else {
                throw StatusTemplateError(.unclosed(String(rest[open...].prefix(40))))
            }
            let name = String(rest[afterOpen..<close])
            guard let placeholder = Placeholder(rawValue: name) else {
                throw StatusTemplateError(.unknownPlaceholder(String(name.prefix(40))))
            }
            parts.append(.placeholder(placeholder))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        return parts
    }
}

/// A status template that cannot be used: what is wrong, and the
/// placeholders there are.
public struct StatusTemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// `{name}` with a name that is not a ``StatusTemplate/Placeholder``.
        case unknownPlaceholder(String)
        /// A `{` with no `}` after it (the text from the brace on).
        case unclosed(String)
    }

    public let problem: Problem

    public init(_ problem: Problem) {
        self.problem = problem
    }

    public var description: String {
        let known = StatusTemplate.Placeholder.allCases.map { "{\($0.rawValue)}" }.joined(separator: ", ")
        switch problem {
        case .unknownPlaceholder(let name):
            return "unknown placeholder {\(name)}; known placeholders: \(known)"
        case .unclosed(let text):
            return "'\(text)' opens a placeholder that is never closed; known placeholders: \(known)"
        }
    }
}
