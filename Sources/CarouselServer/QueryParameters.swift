import Foundation
import Hummingbird

/// A request's query items, read strictly: a number must be a finite decimal
/// number, a flag `true` or `false`, no text may hold a control character,
/// and every problem is a 400 naming the item.
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

    /// The text of `name`, if given (the first when repeated).
    func text(_ name: String) throws(APIError) -> String? {
        guard let text = items[name[...]].map(String.init) else { return nil }
        try Self.refuseControlCharacters(text, of: name)
        return text
    }

    /// Every text given for `name`, in order (`where`, repeated).
    func texts(_ name: String) throws(APIError) -> [String] {
        let texts = items.getAll(name)
        for text in texts { try Self.refuseControlCharacters(text, of: name) }
        return texts
    }

    /// A text with a control character (`%00`, a line feed) is no name,
    /// number or search a user typed; read on, a NUL also ended the text
    /// early in C-string APIs underneath (`lat=37.5%00garbage` read as
    /// 37.5, `q=%00` as an empty search that matched every store).
    static func refuseControlCharacters(_ text: String, of name: String) throws(APIError) {
        if let control = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            let hex = String(control.value, radix: 16, uppercase: true)
            throw .badParameter("\(name) cannot hold U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex), a control character")
        }
    }

    /// A finite number, or nil when absent.
    func number(_ name: String) throws(APIError) -> Double? {
        guard let text = try text(name) else { return nil }
        guard let value = Self.decimal(text), value.isFinite else {
            throw .badParameter("\(name) must be a finite decimal number (got '\(text.prefix(40))')")
        }
        return value
    }

    /// `text` as a decimal number, JSON's grammar with a leading `+` or
    /// `.` and trailing `.` allowed (`-37.5`, `+1e3`, `.5`); nil for
    /// anything else. `Double(_:)` alone also reads hexadecimal
    /// (`0x1p3`), `inf` and `nan`, which no coordinate is written as.
    static func decimal(_ text: String) -> Double? {
        var digits = 0
        var bytes = text.utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func skipDigits() -> Int {
            let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        digits += skipDigits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            digits += skipDigits()
        }
        guard digits > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            guard skipDigits() > 0 else { return nil }
        }
        guard bytes.isEmpty else { return nil }
        return Double(text)
    }

    /// A finite number that must be given.
    func requiredNumber(_ name: String) throws(APIError) -> Double {
        guard let value = try number(name) else { throw .badParameter("\(name) is required") }
        return value
    }

    /// A whole number in `range`, or `default` when absent.
    func integer(_ name: String, in range: ClosedRange<Int>, default value: Int? = nil) throws(APIError) -> Int? {
        guard let text = try text(name) else { return value }
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
        switch try text(name)?.lowercased() {
        case nil: false
        case "true", "1", "": true
        case "false", "0": false
        case let other?: throw .badParameter("\(name) must be true or false (got '\(other.prefix(40))')")
        }
    }

    /// A non-blank name (a list), or nil when absent.
    func name(_ name: String) throws(APIError) -> String? {
        guard let text = try text(name) else { return nil }
        guard !text.allSatisfy(\.isWhitespace) else { throw .badParameter("\(name) must not be blank") }
        return text
    }
}

extension Request {
    /// Path parameter `name`, percent-decoded; a control character (`%00`)
    /// is 400 on every catalog, as in a query item.
    func pathParameter(_ name: String, context: some RequestContext) throws(APIError) -> String {
        guard let raw = context.parameters.get(name), let decoded = raw.removingPercentEncoding,
            !decoded.allSatisfy(\.isWhitespace)
        else { throw .badParameter("the path's \(name) is not a valid name") }
        try QueryParameters.refuseControlCharacters(decoded, of: "the path's \(name)")
        return decoded
    }

    /// Refuses a body whose declared `Content-Length` is over `limit`
    /// (413) before a byte of it is read, rather than after waiting for
    /// a limit's worth of it; `advice` says what to send instead.
    func refuseDeclaredBody(over limit: Int, advice: String) throws(APIError) {
        if let declared = headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw .tooLarge("the body is over \(limit) bytes; \(advice)")
        }
    }
}
