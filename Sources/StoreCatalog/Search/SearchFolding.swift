import Foundation

/// Text as a search compares it: case, accents and width ignored, so that
/// `cafe` finds `Café`, `strasse` finds `Straße` and `ｃａｆｅ` finds `cafe`.
///
/// The folding is Foundation's (`String.folding(options:locale:)` with
/// case, diacritic and width insensitivity, no locale): Unicode's full case
/// folding, then combining marks removed after canonical decomposition.
/// Letters that are not decomposed (ø, ł, æ) stay as they are, as in ICU.
/// Hangul syllables are not decomposed, so `강남` finds `하늘커피 강남역점`.
package enum SearchFolding {
    /// `text` folded. ASCII text, the common case for names and addresses
    /// in store lists, is lowered byte by byte: Foundation's folding costs
    /// about a microsecond a string, which would dominate building a
    /// list's index of 234,908 names.
    package static func fold(_ text: String) -> String {
        var isASCII = true
        for byte in text.utf8 where byte >= 0x80 {
            isASCII = false
            break
        }
        guard isASCII else {
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
        return String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
