/// How header names are cleaned and compared.
package enum HeaderName {
    /// The header as the user wrote it, for messages and attribute keys:
    /// surrounding whitespace and any stray byte order mark (U+FEFF) removed.
    package static func cleaned(_ header: String) -> String {
        header.trimmingUnicodeScalars { $0.properties.isWhitespace || $0 == "\u{FEFF}" }
    }

    /// The header for matching: cleaned, then lowercased (the catalog's rule:
    /// case-insensitive), so `Latitude`, `LAT` and `lat` are one column.
    package static func folded(_ header: String) -> String {
        cleaned(header).lowercased()
    }
}

extension String {
    /// The string without the leading and trailing scalars `isTrimmed` accepts.
    fileprivate func trimmingUnicodeScalars(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
            let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
