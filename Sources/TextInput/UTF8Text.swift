/// Strings from UTF-8 bytes, validated, on the hot path of every field.
///
/// `String(validating:as:)` is generic and not inlinable, so each call pays
/// for a runtime metadata lookup — a fifth of a whole CSV import when
/// measured. Checking the bytes here and then building the String with the
/// specialised `String(decoding:as:)` costs a loop over bytes that are
/// almost always ASCII.
package enum UTF8Text {
    /// The String spelled by `bytes`, or nil when they are not well-formed
    /// UTF-8.
    @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isWellFormed(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether `bytes` is well-formed UTF-8 (Unicode 15, Table 3-7): no
    /// stray continuation bytes, no overlong forms, no surrogates, nothing
    /// above U+10FFFF, no sequence cut short.
    package static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        // ASCII eight bytes at a time: nearly every field is ASCII only.
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= count, raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index &+= 8
            }
        }
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            // The allowed range of the second byte depends on the lead
            // (Table 3-7); later bytes are always 80...BF.
            let length: Int
            var secondLow: UInt8 = 0x80, secondHigh: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; secondLow = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; secondHigh = 0x9F
            case 0xF0: length = 4; secondLow = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; secondHigh = 0x8F
            default: return false
            }
            guard index + length <= count else { return false }
            let second = bytes[index + 1]
            guard second >= secondLow, second <= secondHigh else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
                return false
            }
            index += length
        }
        return true
    }
}
