/// A store's display name built from columns of the input, such as
/// `{상호명} {지점명}`: the Korean public small-business data gives the brand
/// in 상호명 and the branch in 지점명, and a carousel of one chain's stores
/// needs both ("하늘커피 강남역점").
///
/// `{column}` is replaced by that column's value (headers compared ignoring
/// case; a column that feeds a store field, like 상호명 for the name, works
/// too); everything else is kept as written; `{{` and `}}` are literal
/// braces. A column empty in a row contributes nothing, and the result is
/// trimmed; a name that comes out empty makes the row invalid.
public struct NameFormat: Sendable, Hashable, CustomStringConvertible {
    enum Piece: Sendable, Hashable {
        case text(String)
        case column(String)
    }

    let pieces: [Piece]
    /// The template as given.
    public let description: String

    /// The columns the template names, in order of first use.
    public var columns: [String] {
        var seen = Set<String>()
        return pieces.compactMap {
            guard case .column(let name) = $0, seen.insert(name.lowercased()).inserted else { return nil }
            return name
        }
    }

    /// Parses `template`; throws ``CatalogError/invalidArgument(_:)`` for an
    /// unclosed or stray brace, an empty `{}`, or no column at all.
    public init(_ template: String) throws(CatalogError) {
        var pieces: [Piece] = []
        var text = ""
        var characters = template[...]
        func fail(_ reason: String) -> CatalogError {
            .invalidArgument("name format '\(template)': \(reason) (write columns as {상호명}, braces as {{ and }})")
        }
        while let character = characters.popFirst() {
            switch character {
            case "{" where characters.first == "{", "}" where characters.first == "}":
                characters.removeFirst()
                text.append(character)
            case "{":
                guard let close = characters.firstIndex(of: "}") else { throw fail("a '{' is not closed") }
                let name = characters[..<close].trimmingCharacters()
                guard !name.isEmpty else { throw fail("'{}' names no column") }
                guard !name.contains("{") else { throw fail("a '{' inside a column name") }
                if !text.isEmpty { pieces.append(.text(text)) }
                text = ""
                pieces.append(.column(name))
                characters = characters[characters.index(after: close)...]
            case "}":
                throw fail("a '}' without its '{'")
            default:
                text.append(character)
            }
        }
        if !text.isEmpty { pieces.append(.text(text)) }
        guard pieces.contains(where: { if case .column = $0 { true } else { false } }) else {
            throw fail("it names no column")
        }
        self.pieces = pieces
        description = template
    }

    /// The name for `store` as read from the input, and the template's
    /// columns the row had (a value or a field the column fed).
    func name(for store: Store, found: inout Set<String>) -> String {
        var name = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                name += text
            case .column(let column):
                if let value = Self.value(of: column, in: store) {
                    found.insert(column.lowercased())
                    name += value
                }
            }
        }
        return name.trimmingCharacters()
    }

    /// The value of `column` in a store as imported: an attribute of that
    /// header, else the field that the header is an alias of.
    private static func value(of column: String, in store: Store) -> String? {
        if let value = store.attributes[column] { return value.text }
        if let match = store.attributes.first(where: { $0.key.lowercased() == column.lowercased() }) { return match.value.text }
        switch StoreField.matching(column)?.field {
        case .id: return store.id
        case .name: return store.name
        case .address: return store.address
        case .category: return store.category
        case .phone: return store.phone
        case .latitude: return String(store.latitude)
        case .longitude: return String(store.longitude)
        case nil: return nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace.
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
