extension StoreSearch.AttributeFilter {
    /// Whether `attribute` (a store's value for ``name``, nil when it has
    /// none) matches ``value``, by the rules on ``StoreSearch/AttributeFilter``.
    public func matches(_ attribute: AttributeValue?) -> Bool {
        guard let attribute else { return false }
        return Self.matches(attribute, value, nesting: 0)
    }

    private static func matches(_ attribute: AttributeValue, _ value: String, nesting: Int) -> Bool {
        switch attribute {
        case .string(let text):
            return text == value
        case .number(let number):
            if number.text == value { return true }
            guard let wanted = AttributeValue.Number(value), let left = number.normalized(),
                let right = wanted.normalized()
            else { return false }
            return left.negative == right.negative && left.digits == right.digits && left.exponent == right.exponent
        case .bool(let flag):
            return AttributeType.booleanValue(value.utf8) == flag
        case .null:
            return value.isEmpty || value == "null"
        case .array(let elements):
            // Elements of elements too, but not without end: a stored
            // value nests at most as deep as an import lets it.
            if nesting < 8, elements.contains(where: { matches($0, value, nesting: nesting + 1) }) { return true }
            return AttributesJSON.text(of: attribute) == value
        case .object:
            return AttributesJSON.text(of: attribute) == value
        }
    }
}
