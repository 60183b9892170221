import Foundation

/// The opaque cursor of `GET /lists/{name}/stores`: where the next page
/// starts in the list's carousel order.
///
/// It carries only the list position, so it stays valid while other lists
/// change (positions are per list); it is base64url so clients treat it as
/// a token, and prefixed so a malformed or foreign one is refused (400)
/// rather than misread.
struct StoreCursor: Equatable {
    var position: Int

    private static let prefix = "p1:"

    var token: String {
        Data((Self.prefix + String(position)).utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    init(position: Int) {
        self.position = position
    }

    /// Reads a token; throws a 400 when it is not one of ours.
    init(token: String) throws(APIError) {
        let invalid = APIError(.badRequest, "bad_cursor", "the cursor is not one this server gave; start again without cursor")
        guard token.utf8.count <= 64, token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { throw invalid }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
            text.hasPrefix(Self.prefix), let position = Int(text.dropFirst(Self.prefix.count)), position >= 0
        else { throw invalid }
        self.position = position
    }
}
