import Foundation

/// How figures read in the table: units chosen per magnitude, thousands
/// separated, ratios with a `×`.
enum Format {
    static func seconds(_ seconds: Double) -> String {
        seconds >= 1 ? String(format: "%.2f s", seconds) : milliseconds(seconds * 1e3)
    }

    static func milliseconds(_ milliseconds: Double) -> String {
        String(format: milliseconds >= 10 ? "%.1f ms" : "%.2f ms", milliseconds)
    }

    static func microseconds(_ microseconds: Double) -> String {
        microseconds >= 1000 ? milliseconds(microseconds / 1e3) : String(format: "%.1f µs", microseconds)
    }

    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }

    static func ratio(_ ratio: Double) -> String {
        String(format: ratio >= 100 ? "%.0f×" : ratio >= 10 ? "%.1f×" : "%.2f×", ratio)
    }

    /// A count with thousands separators: 1,000,000.
    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (position, digit) in digits.enumerated() {
            if position > 0, (digits.count - position).isMultiple(of: 3) { grouped.append(",") }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// Events per second, in millions or thousands.
    static func rate(_ perSecond: Double) -> String {
        if perSecond >= 1e6 { return String(format: "%.2f M/s", perSecond / 1e6) }
        // A tenth below 10 k/s: 3.5 and 4.4 k/s are the difference a ratio to a peer turns on.
        return String(format: perSecond < 1e4 ? "%.1f k/s" : "%.0f k/s", perSecond / 1e3)
    }
}
