import Testing

@testable import TextInput

/// Bytes in memory read as a file is: the same values whatever the size.
@Suite struct ByteReaderMemoryTests {
    @Test func readsEveryByteInOrderAcrossChunks() throws {
        // Larger than a chunk (256 KiB), so the reader refills.
        let bytes = (0..<600_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var reader = ByteReader(bytes: bytes, name: "memory")
        var read: [UInt8] = []
        read.reserveCapacity(bytes.count)
        while let byte = try reader.next() { read.append(byte) }
        #expect(read == bytes)
        #expect(reader.offset == bytes.count)
    }

    @Test func anEmptyInputEndsAtOnce() throws {
        var reader = ByteReader(bytes: [], name: "memory")
        #expect(try reader.peek() == nil)
    }

    @Test func aLongDocumentParsesFromMemory() throws {
        let text = "[" + (0..<50_000).map { #"{"n": \#($0), "s": "\#(String(repeating: "é", count: 3))"}"# }.joined(separator: ",") + "]"
        guard case .array(let elements) = try JSONValue.parse(text.utf8) else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == 50_000)
        #expect(elements[49_999]["n"] == .number("49999"))
        #expect(elements[7]["s"] == .string("ééé"))
    }
}
