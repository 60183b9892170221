import Foundation
import Hummingbird

/// A request's query items, read strictly: a number must be a finite number,
/// a flag `true` or `false`, and every problem is a 400 naming the item.
struct QueryParameters {
    private let items: Parameters
    let limits: ServerLimits

    init(_ request: Request, limits: ServerLimits) {
        self.init(items: request.uri.queryParameters, limits: limits)
    }

    /// Items that did not come in a URL: a session's `query` message.
    init(items: Parameters, limits: ServerLimits) {
        self.items = items
        self.limits = limits
    }

    /// The raw text of `name`, if given (the first when repeated).
    func text(_ name: String) -> String? {
        items[name[...]].map(String.init)
    }

    /// Every text given for `name`, in order (`where`, repeated).
    func texts(_ name: String) -> [String] {
        items.getAll(name)
    }

    /// A finite number, or nil when absent.
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = text(name) else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw .badParameter("\(name) must be a finite number (got '\(text.prefix(40))')")
        }
        return value
    }

    /// A finite number that must be given.
    func requiredNumber(_ name: String) throws(APIError) -> Double {
        guard let value = try number(name) else { throw .badParameter("\(name) is required") }
        return value
    }

    /// A whole number in `range`, or `default` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default value: Int? = nil) throws(APIError) -> Int? {
        guard let text = text(name) else { return value }
        guard let parsed = Int(text), range.contains(parsed) else {
            throw .badParameter("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound) (got '\(text.prefix(40))')")
        }
        return parsed
    }

    /// `limit`: 1 through the server's maximum, `default` when absent.
    func limit(default value: Int) throws(APIError) -> Int {
        try integer("limit", in: 1...limits.maxLimit, default: value)!
    }

    /// `true` or `false` (also `1`/`0`); `false` when absent.
    func flag(_ name: String) throws(APIError) -> Bool {
        switch text(name)?.lowercased() {
        case nil: false
        case "true", "1", "": true
        case "false", "0": false
        case let other?: throw .badParameter("\(name) must be true or false (got '\(other.prefix(40))')")
        }
    }

    /// A non-blank name (a list), or nil when absent.
    func name(_ name: String) throws(APIError) -> String? {
        guard let text = text(name) else { return nil }
        guard !text.allSatisfy(\.isWhitespace) else { throw .badParameter("\(name) must not be blank") }
        return text
    }
}

extension Request {
    /// Path parameter `name`, percent-decoded.
    func pathParameter(_ name: String, context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), let decoded = raw.removingPercentEncoding,
            !decoded.allSatisfy(\.isWhitespace)
        else { throw .badParameter("the path's \(name) is not a valid name") }
        return decoded
    }
}
