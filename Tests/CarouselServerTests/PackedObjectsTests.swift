import Testing

@testable import CarouselServer

/// The nearest-store snapshot's JSON objects, packed in chunks.
struct PackedObjectsTests {
    @Test func everyObjectReadsBackAsWrittenAcrossChunks() {
        var packed = PackedObjects()
        var written: [(PackedObjects.Address, [UInt8])] = []
        // 4.5 MiB of objects: of 1 to 600 bytes, and one longer than a chunk.
        var total = 0
        var index = 0
        while total < 9 << 19 {
            let object = [UInt8](repeating: UInt8(index % 251), count: 1 + index * 7919 % 600)
            written.append((packed.append { $0 += object }, object))
            total += object.count
            index += 1
            if index == 1_000 {
                let long = [UInt8](repeating: 7, count: PackedObjects.chunkSize + 5)
                written.append((packed.append { $0 += long }, long))
                total += long.count
            }
        }
        for (address, object) in written { #expect(Array(packed[address]) == object) }
        #expect(Set(written.map(\.0.chunk)).count >= 5)
        // Chunks are sized once, never grown, and the long object did not
        // end the chunk being filled: each chunk's unused tail is shorter
        // than one object, but the last one's.
        #expect(packed.capacity < total + PackedObjects.chunkSize + 6 * (600 + 1_024))
    }

    @Test func anEmptyObjectHasAnEmptyRange() {
        var packed = PackedObjects()
        let first = packed.append { $0 += [1, 2] }
        let empty = packed.append { _ in }
        #expect(Array(packed[first]) == [1, 2])
        #expect(packed[empty].isEmpty)
    }
}
