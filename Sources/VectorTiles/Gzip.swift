import CompressNIO
import NIOCore

/// gzip (RFC 1952) of a tile's bytes: what `Content-Encoding: gzip`
/// carries, and how MBTiles and PMTiles store vector tiles. A marker tile
/// is mostly repeated keys and small varints, so it shrinks to about a
/// third.
public enum Gzip {
    public static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        // zlib's bound for one deflate call plus gzip's 18-byte frame.
        var output = ByteBuffer()
        output.reserveCapacity(bytes.count + bytes.count / 1000 + 64)
        do {
            try input.compress(to: &output, with: .gzip())
        } catch {
            // Only a too-small output buffer fails, and it is sized by
            // zlib's own bound.
            preconditionFailure("gzip of \(bytes.count) bytes failed: \(error)")
        }
        return Array(output.readableBytesView)
    }

    /// The bytes `bytes` gzipped; throws for anything else, or when they
    /// would grow past `maxSize` (a small file may inflate a thousandfold).
    public static func decompress(_ bytes: [UInt8], maxSize: Int = 64 << 20) throws -> [UInt8] {
        var input = ByteBuffer(bytes: bytes)
        return Array(try input.decompress(with: .gzip(), maxSize: maxSize).readableBytesView)
    }
}
