import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A server killed in the middle of an upload leaves its spool folder in the
/// temporary folder (nothing runs at SIGKILL); the next server started there
/// removes it — only folders of its own prefix whose process is gone.
@Suite struct KilledImportSpoolTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// `carousel serve` on a free port with `TMPDIR` set, logging to `log`,
    /// and its port once it says it serves.
    private func serve(_ workspace: Workspace, temporary: URL, log: URL) throws -> (Process, Int) {
        let serve = try ServeProcess(["--db", workspace.db, "--port", "0"], environment: ["TMPDIR": temporary.path], log: log)
        guard let port = serve.waitUntilServing() else {
            serve.process.terminate()
            throw CLIFailure("serve did not start: \(serve.text)")
        }
        return (serve.process, port)
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private func spools(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("carousel-import-") }
    }

    @Test func aServerKilledMidUploadLeavesItsSpoolAndTheNextOneRemovesIt() throws {
        let workspace = try Workspace()
        let token = try workspace.run(["tokens", "create", "writer", "--scope", "write"]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let temporary = workspace.directory.path("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // Another program's folder, and a folder of a server that still runs
        // (this test process): neither is the server's to remove.
        let foreign = temporary.appendingPathComponent("other-program-1")
        let living = temporary.appendingPathComponent("carousel-import-\(getpid())-living")
        for folder in [foreign, living] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }

        let (first, port) = try serve(workspace, temporary: temporary, log: workspace.directory.path("first.log"))
        // Half an upload: the head and part of a 1 MB body, then nothing.
        let socket = try RawSocket(port: port)
        let body = "id,name,latitude,longitude\n" + String(repeating: "x", count: 100_000)
        try socket.send(
            "POST /lists/killed/import?format=csv HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: text/csv\r\nContent-Length: 1000000\r\n\r\n" + body)
        let deadline = Date().addingTimeInterval(30)
        while spools(in: temporary).count < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(spools(in: temporary).count == 2, "the upload is spooled")
        kill(first.processIdentifier, SIGKILL)
        first.waitUntilExit()
        socket.close()
        #expect(spools(in: temporary).count == 2, "nothing removed it: the server was killed")

        let log = workspace.directory.path("second.log")
        let (second, _) = try serve(workspace, temporary: temporary, log: log)
        kill(second.processIdentifier, SIGTERM)
        second.waitUntilExit()
        #expect(spools(in: temporary) == [living.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect((try String(contentsOf: log, encoding: .utf8)).contains("removed 1 upload folders left by killed servers"))
    }
}

/// A TCP connection to 127.0.0.1 that sends raw bytes.
private final class RawSocket {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw KilledImportSpoolTests.CLIFailure("cannot connect to port \(port)") }
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let written = bytes[sent...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written > 0 else { throw KilledImportSpoolTests.CLIFailure("write failed") }
            sent += written
        }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
