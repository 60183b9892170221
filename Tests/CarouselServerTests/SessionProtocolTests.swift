import Foundation
import HummingbirdTesting
import StoreCatalog
import Testing

@testable import CarouselServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The WebSocket protocol of a session, frame by frame over raw TCP (what
/// a WebSocket library will not send): RFC 6455's handshake errors as JSON,
/// unmasked frames and text that is not UTF-8 closed, pings as traffic,
/// revoked tokens closed, and messages under the rate limit.
@Suite struct SessionProtocolTests {
    @Test func aBadHandshakeIsAJSONErrorLoggedAndCounted() async throws {
        var options = ServerOptions()
        options.logFormat = .json
        let fixture = try ServerFixture(options: options)
        let lines = LogLines()
        try await fixture.server.application(host: "127.0.0.1", port: 0, logger: lines.logger).test(.live) { client in
            let port = try #require(client.port)
            let upgrade = RawHTTP.upgrade("/lists/seoul/session", port: port)
            let version8 = try await RawHTTP.exchange(
                port: port, upgrade.replacingOccurrences(of: "Sec-WebSocket-Version: 13", with: "Sec-WebSocket-Version: 8"))
            HTTPConformanceTests.expectError(version8, status: 426, code: "unsupported_websocket_version", containing: "version 13")
            #expect(version8.headers["sec-websocket-version"] == "13")
            let noKey = try await RawHTTP.exchange(
                port: port, upgrade.replacingOccurrences(of: "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n", with: ""))
            HTTPConformanceTests.expectError(noKey, status: 400, code: "bad_upgrade", containing: "Sec-WebSocket-Key")
            let shortKey = try await RawHTTP.exchange(
                port: port, upgrade.replacingOccurrences(of: "dGhlIHNhbXBsZSBub25jZQ==", with: "c2hvcnQ="))
            HTTPConformanceTests.expectError(shortKey, status: 400, code: "bad_upgrade", containing: "16 random bytes")
            let noVersion = try await RawHTTP.exchange(
                port: port, upgrade.replacingOccurrences(of: "Sec-WebSocket-Version: 13\r\n", with: ""))
            HTTPConformanceTests.expectError(noVersion, status: 400, code: "bad_upgrade", containing: "Sec-WebSocket-Version")
            let post = try await RawHTTP.exchange(
                port: port, upgrade.replacingOccurrences(of: "GET ", with: "POST ").replacingOccurrences(of: "\r\n\r\n", with: "\r\nContent-Length: 0\r\n\r\n"))
            HTTPConformanceTests.expectError(post, status: 400, code: "bad_upgrade", containing: "GET")
            // An upgrade to anything else is ignored (RFC 9110 §7.8): the
            // session path then says how to reach it.
            let h2c = try await RawHTTP.exchange(port: port, upgrade.replacingOccurrences(of: "Upgrade: websocket", with: "Upgrade: h2c"))
            HTTPConformanceTests.expectError(h2c, status: 400, code: "upgrade_required", containing: "WebSocket")
            let twoOrigins = try await RawHTTP.exchange(
                port: port,
                RawHTTP.upgrade("/lists/seoul/session", port: port, extra: [("Origin", "http://127.0.0.1:\(port)"), ("Origin", "http://evil.example")]))
            HTTPConformanceTests.expectError(twoOrigins, status: 400, code: "bad_request", containing: "more than one Origin")
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(metrics.contains(#"status="426"} 1"#), "\(metrics)")
        }
        let entries = lines.all.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(entries.filter { $0["status"] as? Int == 400 }.count == 6, "\(lines.all)")
        #expect(entries.contains { $0["status"] as? Int == 426 && $0["client"] as? String == "127.0.0.1" })
    }

    @Test func anUnmaskedFrameCloses1002AndTextThatIsNotUTF8Closes1007() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let unmasked = try await Self.session(port: port) { fd in
                Self.sendFrame(fd, opcode: 1, payload: Array(#"{"tapMarker":1}"#.utf8), masked: false)
                return Self.closeCode(fd)
            }
            #expect(unmasked == 1002)
            let invalid = try await Self.session(port: port) { fd in
                Self.sendFrame(fd, opcode: 1, payload: [0x7B, 0xC3, 0x28, 0x7D], masked: true)
                return Self.closeCode(fd)
            }
            #expect(invalid == 1007)
        }
    }

    /// A frame sent in the handshake's packet reaches the upgrade from the
    /// HTTP decoder, not as a frame: unmasked, it closes the connection
    /// all the same, and no session handles it.
    @Test func anUnmaskedFrameSentWithTheHandshakeClosesTheConnection() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let tap = #"{"tapMarker":1}"#
            if let socket = try? await RawWebSocket.open(port: port, first: [tap], firstMasked: false) {
                let frames = await socket.frames(until: { _ in false }, seconds: 5)
                #expect(!frames.contains { $0.text.contains(#""type":"scroll""#) }, "the tap was not handled")
            }
            // Masked, the same packet opens a session that answers it.
            let masked = try await RawWebSocket.open(port: port, first: [tap])
            #expect(masked.reply.status == 101)
            let frames = await masked.frames { $0.text.contains(#""type":"scroll""#) }
            #expect(frames.last?.text.contains(#""type":"scroll""#) == true)
        }
    }

    @Test func aPingIsTraffic() async throws {
        var options = ServerOptions()
        options.sessionIdleTimeout = .seconds(2)
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let (closedWhilePinging, code) = try await Self.session(port: port) { fd -> (Bool, Int?) in
                // Pings for twice the timeout: the session stays.
                for _ in 0..<20 {
                    Self.sendFrame(fd, opcode: 9, payload: Array("hi".utf8), masked: true)
                    usleep(200_000)
                }
                let closed = Self.closeCode(fd, seconds: 0) != nil
                // Then silence: closed as idle.
                return (closed, Self.closeCode(fd, seconds: 10))
            }
            #expect(!closedWhilePinging)
            #expect(code == 1000)
        }
    }

    @Test func aRevokedTokensSessionsAreClosed1008() async throws {
        var options = ServerOptions()
        options.requireTokenForReads = true
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let catalog = fixture.catalog
            let code = try await Self.session(port: port, path: "/lists/seoul/session?token=\(fixture.readToken)") { fd in
                _ = try? catalog.revokeToken(named: "test-reader")
                return Self.closeCode(fd, seconds: 10)
            }
            #expect(code == 1008)
        }
    }

    @Test func sessionMessagesAreUnderTheRateLimit() async throws {
        var options = ServerOptions()
        options.rateLimit = 5
        let fixture = try ServerFixture(options: options)
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let texts = try await Self.session(port: port) { fd -> [String] in
                for _ in 0..<500 { Self.sendFrame(fd, opcode: 1, payload: Array(#"{"tapMarker":1}"#.utf8), masked: true) }
                return Self.texts(fd, seconds: 3)
            }
            // Taps are requests: 5 a second, bursts of 10.
            let limited = texts.filter { $0.contains("rate_limited") }.count
            #expect(limited >= 480, "\(limited) of \(texts.count)")
            #expect(texts.contains { $0.contains("over 5 of these a second") })
            // A scroll at 120 Hz for a second is not limited.
            let scroll = try await Self.session(port: port) { fd -> [String] in
                for step in 0..<120 { Self.sendFrame(fd, opcode: 1, payload: Array(#"{"offset":\#(step * 3)}"#.utf8), masked: true) }
                return Self.texts(fd, seconds: 2)
            }
            #expect(!scroll.contains { $0.contains("rate_limited") }, "\(scroll.filter { $0.contains("rate_limited") }.count)")
        }
    }

    /// Opens a session on `path` over raw TCP and runs `body` with its
    /// socket (after the 101) on a thread of its own.
    static func session<T: Sendable>(
        port: Int, path: String = "/lists/seoul/session", _ body: @escaping @Sendable (Int32) throws -> T
    ) async throws -> T {
        try await RawHTTP.onThread {
            let fd = try RawHTTP.connect(port: port)
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            RawHTTP.send(fd, RawHTTP.upgrade(path, port: port))
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while !head.ends(with: Array("\r\n\r\n".utf8)), recv(fd, &byte, 1, 0) == 1 { head.append(byte) }
            guard String(decoding: head, as: UTF8.self).hasPrefix("HTTP/1.1 101") else {
                throw SessionProtocolError(text: String(decoding: head, as: UTF8.self))
            }
            return try body(fd)
        }
    }

    struct SessionProtocolError: Error {
        var text: String
    }

    /// Sends one frame with FIN set, masked as a client must or not.
    static func sendFrame(_ fd: Int32, opcode: UInt8, payload: [UInt8], masked: Bool) {
        var frame: [UInt8] = [0x80 | opcode]
        let length = payload.count
        let maskBit: UInt8 = masked ? 0x80 : 0
        if length < 126 {
            frame.append(maskBit | UInt8(length))
        } else {
            frame.append(maskBit | 126)
            frame += [UInt8(length >> 8), UInt8(length & 0xFF)]
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            frame += key
            frame += payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
        } else {
            frame += payload
        }
        _ = frame.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// The server's frames until `seconds` pass with nothing or it closes:
    /// each as (opcode, payload).
    static func frames(_ fd: Int32, seconds: Int, untilClose: Bool = true) -> [(UInt8, [UInt8])] {
        var timeout = timeval(tv_sec: seconds, tv_usec: seconds == 0 ? 300_000 : 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var bytes: [UInt8] = []
        var frames: [(UInt8, [UInt8])] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            bytes += buffer[0..<count]
            // Server frames are never masked.
            while bytes.count >= 2 {
                var length = Int(bytes[1] & 0x7F), offset = 2
                if length == 126 {
                    guard bytes.count >= 4 else { break }
                    length = Int(bytes[2]) << 8 | Int(bytes[3])
                    offset = 4
                } else if length == 127 {
                    guard bytes.count >= 10 else { break }
                    length = bytes[2..<10].reduce(0) { $0 << 8 | Int($1) }
                    offset = 10
                }
                guard bytes.count >= offset + length else { break }
                frames.append((bytes[0] & 0x0F, Array(bytes[offset..<(offset + length)])))
                bytes.removeFirst(offset + length)
            }
            if untilClose, frames.contains(where: { $0.0 == 8 }) { break }
        }
        return frames
    }

    /// The code of the close frame the server sends within `seconds`.
    static func closeCode(_ fd: Int32, seconds: Int = 10) -> Int? {
        guard let close = frames(fd, seconds: seconds).first(where: { $0.0 == 8 }), close.1.count >= 2 else { return nil }
        return Int(close.1[0]) << 8 | Int(close.1[1])
    }

    /// The text frames the server sends within `seconds` of quiet.
    static func texts(_ fd: Int32, seconds: Int) -> [String] {
        frames(fd, seconds: seconds, untilClose: false).filter { $0.0 == 1 }.map { String(decoding: $0.1, as: UTF8.self) }
    }
}

extension Array where Element: Equatable {
    fileprivate func ends(with suffix: [Element]) -> Bool {
        count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
    }
}
