/// The generator's output: bytes appended to one fixed buffer, handed to a
/// sink each time it fills, so memory stays the same at any row count.
///
/// Numbers are formatted here, digit by digit, rather than through
/// `String(format:)` or `description`: the same bytes on every platform
/// (no locale, no shortest-representation rules) and no allocation per value.
struct CSVOutput {
    static let capacity = 64 * 1024

    private var buffer: [UInt8] = []
    private let sink: (UnsafeBufferPointer<UInt8>) -> Void

    init(sink: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        self.sink = sink
        buffer.reserveCapacity(Self.capacity)
    }

    /// Hands what is buffered to the sink.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBufferPointer(sink)
        buffer.removeAll(keepingCapacity: true)
    }

    /// Room for `bytes` more, flushing first if they would not fit. (A row
    /// is far below the capacity.)
    private mutating func reserve(_ bytes: Int) {
        if buffer.count + bytes > Self.capacity { flush() }
    }

    mutating func append(_ text: String) {
        reserve(text.utf8.count)
        buffer.append(contentsOf: text.utf8)
    }

    mutating func comma() {
        reserve(1)
        buffer.append(UInt8(ascii: ","))
    }

    mutating func newline() {
        reserve(1)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// `value` (≥ 0) in decimal, zero-padded to at least `width` digits.
    mutating func appendDigits(_ value: Int, width: Int) {
        precondition(value >= 0, "appendDigits takes a value of 0 or more")
        var digits:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
            ) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0 || count < width
        }
        reserve(count)
        withUnsafeBytes(of: &digits) { digits in
            for index in stride(from: count - 1, through: 0, by: -1) { buffer.append(digits[index]) }
        }
    }

    /// `value` rounded to `decimals` places, as `-12.34560` (always that
    /// many decimals; a value that rounds to zero is written without sign).
    mutating func appendFixed(_ value: Double, decimals: Int) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value.magnitude * Double(scale)).rounded())
        if value < 0, scaled != 0 { append("-") }
        appendDigits(scaled / scale, width: 1)
        if decimals > 0 {
            reserve(1)
            buffer.append(UInt8(ascii: "."))
            appendDigits(scaled % scale, width: decimals)
        }
    }
}
