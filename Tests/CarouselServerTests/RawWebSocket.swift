import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A WebSocket client by hand (RFC 6455 §5.2 framing), for what a client
/// library will not send: frames without a mask, text that is not UTF-8,
/// pings when the test says. Its reads block, on a thread of their own
/// (``RawHTTP/onThread(_:)``); one task uses it at a time.
final class RawWebSocket: @unchecked Sendable {
    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]

        var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's status code (RFC 6455 §7.1.5).
        var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
        var closeReason: String { String(decoding: payload.dropFirst(2), as: UTF8.self) }
    }

    static let text: UInt8 = 1
    static let close: UInt8 = 8
    static let ping: UInt8 = 9
    static let pong: UInt8 = 10

    let fd: Int32
    /// The upgrade's answer.
    let reply: RawHTTP.Reply
    /// What came after the head and is not yet a whole frame.
    private var pending: [UInt8]

    private init(fd: Int32, reply: RawHTTP.Reply) {
        self.fd = fd
        self.reply = reply
        pending = reply.rawBody
    }

    deinit { Glibc.close(fd) }

    /// Opens a session of `path` with `extra` headers; its answer is
    /// ``reply`` (101 when it switched). `first` texts are sent right
    /// after the request, before its answer, as a client that does not
    /// wait would (masked unless told).
    static func open(
        port: Int, path: String = "/lists/seoul/session", extra: [(String, String)] = [], first: [String] = [],
        firstMasked: Bool = true
    ) async throws -> RawWebSocket {
        try await RawHTTP.onThread {
            let fd = try RawHTTP.connect(port: port)
            RawHTTP.send(fd, RawHTTP.upgrade(path, port: port, extra: extra))
            for text in first { send(fd, frame(opcode: Self.text, Array(text.utf8), masked: firstMasked)) }
            guard let reply = readHead(fd, seconds: 30) else {
                Glibc.close(fd)
                throw POSIXError(.ECONNRESET)
            }
            return RawWebSocket(fd: fd, reply: reply)
        }
    }

    /// The response head (and whatever came with it), a read at a time.
    private static func readHead(_ fd: Int32, seconds: Int) -> RawHTTP.Reply? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if let reply = RawHTTP.parse(received) { return reply }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
        }
    }

    /// Sends one frame, final, masked unless told (a client must mask: RFC 6455 §5.3).
    func send(opcode: UInt8, _ payload: [UInt8], masked: Bool = true) {
        Self.send(fd, Self.frame(opcode: opcode, payload, masked: masked))
    }

    /// The bytes of one final frame.
    private static func frame(opcode: UInt8, _ payload: [UInt8], masked: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(mask | UInt8(payload.count))
        case ..<65536: bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [mask | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let key = (0..<4).map { _ in UInt8.random(in: 0 ... .max) }
            bytes += key
            bytes += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            bytes += payload
        }
        return bytes
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { return }
            sent += count
        }
    }

    func send(text: String, masked: Bool = true) { send(opcode: Self.text, Array(text.utf8), masked: masked) }

    /// The next frame the server sends; nil when the socket closes or
    /// `seconds` pass with nothing.
    func next(seconds: Int = 10) async -> Frame? {
        await RawHTTP.onThread { self.nextNow(seconds: seconds) }
    }

    /// Frames until one that `isLast` accepts (included), a close frame, the
    /// socket's end or `seconds` of silence.
    func frames(until isLast: (Frame) -> Bool, seconds: Int = 10) async -> [Frame] {
        var frames: [Frame] = []
        while let frame = await next(seconds: seconds) {
            frames.append(frame)
            if isLast(frame) || frame.opcode == Self.close { break }
        }
        return frames
    }

    private func nextNow(seconds: Int) -> Frame? {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let (frame, length) = Self.parse(pending) {
                pending.removeFirst(length)
                return frame
            }
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            pending += buffer[0..<count]
        }
    }

    /// A whole server frame at the start of `bytes` (never masked) and its length.
    static func parse(_ bytes: [UInt8]) -> (Frame, Int)? {
        guard bytes.count >= 2 else { return nil }
        var length = Int(bytes[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return nil }
            length = Int(bytes[2]) << 8 | Int(bytes[3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return nil }
            length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard bytes.count >= offset + length else { return nil }
        return (Frame(opcode: bytes[0] & 0x0F, payload: Array(bytes[offset..<(offset + length)])), offset + length)
    }
}
