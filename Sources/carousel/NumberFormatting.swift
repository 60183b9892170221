/// Numbers as the CLI prints them, in JSON and tables alike.
///
/// Engine arithmetic leaves binary noise (`288.8999999999999` for 288.9,
/// frame times like `16.666666666666668`); printed raw it reads as a bug.
/// Lengths, fractions and times are rounded to 3 decimals — a thousandth of a
/// point or of a millisecond is below anything a screen or a person
/// distinguishes — and whole values print without a fraction (`"t":0`,
/// `"zoom":16`). Coordinates are not rounded: they print as imported
/// (`127.0`, as SPEC §8's example), since 3 decimals of a degree is ~100 m.
enum NumberFormatting {
    /// `value` rounded to 3 decimals, shortest form: `0`, `16`, `288.9`,
    /// `16.667`; `null` if it is not finite (JSON has no NaN).
    static func rounded(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return String(Int64(rounded))  // also turns -0.0 into 0
        }
        return String(rounded)
    }

    /// A latitude or longitude, exactly as stored (`37.4979`, `127.0`).
    static func coordinate(_ value: Double) -> String {
        value.isFinite ? String(value) : "null"
    }

    /// A computed latitude or longitude (a framed camera's centre): rounded
    /// to 7 decimals, about a centimetre, so that binary noise does not
    /// print; a stored coordinate comes out as stored.
    static func computedCoordinate(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return String((value * 1e7).rounded() / 1e7 + 0)  // + 0 turns -0.0 into 0.0
    }

    /// An optional integer as JSON: the number, or `null`.
    static func integer(_ value: Int?) -> String {
        value.map(String.init) ?? "null"
    }
}
