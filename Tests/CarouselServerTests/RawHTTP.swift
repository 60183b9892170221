import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A bare TCP client for what an HTTP client library will not send: a
/// `Host` of our choosing, an upgrade by hand, headers cut short. Its reads
/// block, each on a thread of its own (``onThread(_:)``).
enum RawHTTP {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
        /// Whether the server closed the connection (read returned 0).
        var closed: Bool
        /// The bytes after the head, as they came (WebSocket frames after a 101).
        var rawBody: [UInt8] = []
    }

    /// Sends `request` (bytes as given) to 127.0.0.1:`port` and reads until
    /// the server closes or `readTimeout` passes with nothing read; with
    /// `stopAtSwitch`, also as soon as a whole 101 head came (a session
    /// then stays open: waiting out a short timeout for it flaked on a
    /// loaded machine, where the 101 itself took longer).
    static func exchange(port: Int, _ request: String, readTimeout: Int = 5, stopAtSwitch: Bool = false) async throws -> Reply {
        try await onThread { try exchangeNow(port: port, request, readTimeout: readTimeout, stopAtSwitch: stopAtSwitch) }
    }

    /// Runs blocking `work` on a thread of its own. Not on Dispatch's
    /// global queues nor in the calling task: on Linux Swift's cooperative
    /// pool is Dispatch's, as wide as the machine has cores, and a test
    /// blocked in `recv` there for seconds starved the servers of the
    /// tests running beside it (their answers never came: status 0).
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// ``onThread(_:)`` for work that can fail.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await onThread { Result { try work() } }.get()
    }

    static func exchangeNow(port: Int, _ request: String, readTimeout: Int, stopAtSwitch: Bool = false) throws -> Reply {
        let fd = try connect(port: port)
        defer { close(fd) }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            sent += count
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var closed = false
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { closed = true; break }
            if count < 0 { break }
            received += buffer[0..<count]
            // One response is enough when it says how long it is.
            if let reply = parse(received), let length = reply.headers["content-length"].flatMap(Int.init),
                reply.body.utf8.count >= length
            {
                return reply
            }
            if stopAtSwitch, let reply = parse(received), reply.status == 101 { return reply }
        }
        var reply = parse(received) ?? Reply(status: 0, headers: [:], body: "", closed: closed)
        reply.closed = closed
        return reply
    }

    /// Sends `text` on `fd`.
    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            sent += count
        }
    }

    /// Everything `fd` receives until the peer closes or `seconds` pass
    /// with nothing; and whether it closed.
    static func readAll(_ fd: Int32, seconds: Int) async -> (bytes: [UInt8], closed: Bool) {
        await onThread { readAllNow(fd, seconds: seconds) }
    }

    private static func readAllNow(_ fd: Int32, seconds: Int) -> (bytes: [UInt8], closed: Bool) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count == 0 { return (received, true) }
            if count < 0 { return (received, false) }
            received += buffer[0..<count]
        }
    }

    /// What `fd` receives until a WebSocket close frame (opcode 8) with
    /// its status code has come after the response head, or `seconds` of
    /// silence; it answers nothing, the caller closes.
    static func readUntilCloseFrame(_ fd: Int32, seconds: Int) async -> [UInt8] {
        await onThread { readUntilCloseFrameNow(fd, seconds: seconds) }
    }

    private static func readUntilCloseFrameNow(_ fd: Int32, seconds: Int) -> [UInt8] {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return received }
            received += buffer[0..<count]
            if let head = closeFrameOffset(received), received.count >= head + 4 { return received }
        }
    }

    /// Where the first close frame after the head starts, if one has.
    static func closeFrameOffset(_ bytes: [UInt8]) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard let head = bytes.indices.first(where: { bytes[$0...].starts(with: end) }) else { return nil }
        return bytes[(head + 4)...].firstIndex(of: 0x88)
    }

    static func connect(port: Int) throws -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }

    static func parse(_ bytes: [UInt8]) -> Reply? {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let end = text.range(of: "\r\n\r\n") else { return nil }
        let lines = text[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let first = lines.first, first.hasPrefix("HTTP/1.1 "), let status = Int(first.dropFirst(9).prefix(3)) else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let headLength = text[..<end.upperBound].utf8.count
        return Reply(
            status: status, headers: headers, body: String(text[end.upperBound...]), closed: false, rawBody: Array(bytes[headLength...]))
    }

    /// A GET of `path` with `headers` (`Host` among them, or not at all).
    static func get(_ path: String, headers: [(String, String)]) -> String {
        "GET \(path) HTTP/1.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined() + "Connection: close\r\n\r\n"
    }

    /// A POST of `body` to `path` with `headers`.
    static func post(_ path: String, headers: [(String, String)], body: String) -> String {
        "POST \(path) HTTP/1.1\r\n" + headers.map { "\($0.0): \($0.1)\r\n" }.joined()
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }

    /// A WebSocket upgrade request of `path` (RFC 6455 §4.1).
    static func upgrade(_ path: String, port: Int, extra: [(String, String)] = []) -> String {
        get(
            path,
            headers: [
                ("Host", "127.0.0.1:\(port)"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), ("Sec-WebSocket-Version", "13"),
            ] + extra
        ).replacingOccurrences(of: "Connection: close\r\n", with: "")
    }
}
