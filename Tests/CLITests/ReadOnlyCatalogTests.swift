import Foundation
import TestSupport
import Testing

/// A catalog this user cannot write — the file read-only, or its folder —
/// serves every read, and a write fails with one line and exit 74.
///
/// Root ignores file permissions, so as root (CI's containers) the binary
/// runs as `nobody` through util-linux's `setpriv`; as anyone else the
/// permissions apply to the test's own process.
@Suite("Read-only catalogs")
struct ReadOnlyCatalogTests {
    /// Where the catalog cannot be written.
    enum Lock: CaseIterable, CustomTestStringConvertible {
        /// The file is 0444, in a folder the user may write (SQLite could
        /// create its `-shm` and `-wal` there, and must leave none behind).
        case file
        /// The folder is 0555 and the file stays writable by the user:
        /// neither a `-shm` nor a journal can be made.
        case folder

        var testDescription: String { self == .file ? "a read-only file" : "a read-only folder" }
    }

    /// The unprivileged user root becomes (`nobody` on Debian and Ubuntu).
    static let nobody: uid_t = 65534

    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// How the binary is started so that permissions apply to it.
    static var launcher: [String] {
        guard getuid() == 0, let setpriv else { return [] }
        return [setpriv, "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups"]
    }

    /// The binaries run as `nobody`: `carousel` and `carousel-net` (which
    /// `serve` runs from beside it) linked into a folder anyone may enter,
    /// since the checkout may sit in one only root can (`mktemp -d` makes
    /// 0700 folders: `serve` then failed with "carousel-net ... Permission
    /// denied"). Hard links, so nothing large is copied; nil when the test
    /// runs unprivileged already, or the links cannot be made (the built
    /// binaries are used).
    static func reachableBinaries() -> TemporaryDirectory? {
        guard !launcher.isEmpty, let folder = try? TemporaryDirectory("carousel-read-only-bin") else { return nil }
        do {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.url.path)
            for name in ["carousel", "carousel-net"] {
                try FileManager.default.linkItem(
                    at: Paths.productsDirectory.appendingPathComponent(name), to: folder.path(name))
            }
            return folder
        } catch {
            return nil
        }
    }

    /// Root without `setpriv` cannot see permissions apply.
    static let canRunUnprivileged = getuid() != 0 || setpriv != nil

    static let csv = """
        id,name,latitude,longitude,category
        s1,Gangnam Cafe,37.4979,127.0276,cafe
        s2,Jamsil,37.5133,127.1001,
        s3,Hongdae,37.5563,126.9236,cafe
        s4,Itaewon,37.5345,126.9946,

        """

    /// A catalog with the list `seoul` and a write token, made writable,
    /// then locked as `lock` says; unlocked again when the test ends.
    final class LockedCatalog {
        let directory: TemporaryDirectory
        let lock: Lock
        let writeToken: String
        var folder: String { directory.url.path }
        var db: String { directory.path("catalog.sqlite").path }
        /// The folder's names after locking: reads must add none.
        private(set) var namesWhenLocked: [String] = []
        /// Where the binaries run from (``reachableBinaries()``).
        let binaries = ReadOnlyCatalogTests.reachableBinaries()
        var executable: URL { binaries?.path("carousel") ?? CarouselProcess.executable }

        init(_ lock: Lock) throws {
            self.lock = lock
            directory = try TemporaryDirectory("carousel-read-only")
            let file = try directory.write("seoul.csv", ReadOnlyCatalogTests.csv).path
            let db = directory.path("catalog.sqlite").path
            let imported = try CarouselProcess.run(["import", file, "--list", "seoul", "--db", db])
            guard imported.status == 0 else { throw Failure("import: \(imported.stderr)") }
            let token = try CarouselProcess.run(["tokens", "create", "writer", "--scope", "write", "--db", db])
            guard token.status == 0 else { throw Failure("tokens create: \(token.stderr)") }
            writeToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            try FileManager.default.removeItem(atPath: file)
            try apply()
            namesWhenLocked = try names()
        }

        private func apply() throws {
            let unprivileged = getuid() == 0
            switch lock {
            case .file:
                // As root, `nobody` must be able to write the folder.
                try setMode(folder, unprivileged ? 0o777 : 0o755)
                try setMode(db, 0o444)
            case .folder:
                if unprivileged { try setOwner(db, to: ReadOnlyCatalogTests.nobody) }
                try setMode(db, 0o644)
                try setMode(folder, 0o555)
            }
        }

        func names() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        }

        /// Runs `carousel arguments… --db <db>` as the unprivileged user.
        func run(_ arguments: [String]) throws -> CarouselProcess.Result {
            try CarouselProcess.run(arguments + ["--db", db], executable: executable, launcher: ReadOnlyCatalogTests.launcher)
        }

        deinit {
            // So that the temporary folder can be removed.
            _ = chmod(folder, 0o755)
            _ = chmod(db, 0o644)
        }

        private func setMode(_ path: String, _ mode: mode_t) throws {
            guard chmod(path, mode) == 0 else { throw Failure("chmod \(path): \(String(cString: strerror(errno)))") }
        }

        private func setOwner(_ path: String, to user: uid_t) throws {
            guard chown(path, user, gid_t(user)) == 0 else { throw Failure("chown \(path): \(String(cString: strerror(errno)))") }
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8))
    }

    @Test("every reading command reads", .enabled(if: canRunUnprivileged), arguments: Lock.allCases)
    func readsWork(_ lock: Lock) throws {
        let catalog = try LockedCatalog(lock)

        let lists = try catalog.run(["lists", "--json"])
        #expect(lists.status == 0, "\(lists.stderr)")
        #expect(try Self.json(lists.stdout) as? NSArray == [["name": "seoul", "count": 4]] as NSArray)

        let stores = try catalog.run(["stores", "--list", "seoul", "--json"])
        #expect(stores.status == 0, "\(stores.stderr)")
        #expect((try Self.json(stores.stdout) as? [[String: Any]])?.map { $0["id"] as? String } == ["s1", "s2", "s3", "s4"])

        let near = try catalog.run(["near", "--lat", "37.55", "--lng", "126.93", "--limit", "1", "--json"])
        #expect(near.status == 0, "\(near.stderr)")
        #expect((try Self.json(near.stdout) as? [[String: Any]])?.map { $0["id"] as? String } == ["s3"])

        let box = try catalog.run(["bbox", "--south", "37.5", "--west", "127", "--north", "37.52", "--east", "127.2", "--json"])
        #expect(box.status == 0, "\(box.stderr)")
        #expect(Set((try Self.json(box.stdout) as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []) == ["s2"])

        // No cluster index is stored yet: a read-only catalog builds it in
        // memory. At zoom 20 every store is its own marker.
        let clusters = try catalog.run(
            ["clusters", "--list", "seoul", "--zoom", "20", "--south", "37", "--west", "126", "--north", "38", "--east", "128", "--json"])
        #expect(clusters.status == 0, "\(clusters.stderr)")
        #expect((try Self.json(clusters.stdout) as? [Any])?.count == 4, "\(clusters.stdout)")
        let uncluster = try catalog.run(["clusters", "--list", "seoul", "--uncluster-zoom", "0", "--json"])
        #expect(uncluster.status == 0, "\(uncluster.stderr)")

        let export = try catalog.run(["export", "seoul", "--format", "csv"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.lines.count == 5 && export.lines.dropFirst().map { $0.prefix(3) } == ["s1,", "s2,", "s3,", "s4,"], "\(export.stdout)")

        let info = try catalog.run(["info", "--json"])
        #expect(info.status == 0, "\(info.stderr)")
        #expect((try Self.json(info.stdout) as? [String: Any])?["stores"] as? Int == 4)

        let search = try catalog.run(["search", "--list", "seoul", "--text", "cafe", "--json"])
        #expect(search.status == 0, "\(search.stderr)")
        #expect(search.stdout.contains("\"s1\"") && !search.stdout.contains("\"s2\""), "\(search.stdout)")

        let tokens = try catalog.run(["tokens", "list"])
        #expect(tokens.status == 0 && tokens.stdout.contains("writer"), "\(tokens.stderr)")

        // Nothing was left beside the catalog: no -shm or -wal made by a
        // reader, which would be read-only and block the next writer.
        #expect(try catalog.names() == catalog.namesWhenLocked)
    }

    @Test("a write fails with one line and exit 74", .enabled(if: canRunUnprivileged), arguments: Lock.allCases)
    func writesFail(_ lock: Lock) throws {
        let catalog = try LockedCatalog(lock)
        // The input lives elsewhere: the catalog's folder may be read-only.
        let inputs = try TemporaryDirectory("carousel-read-only-input")
        let imported = try catalog.run(["import", try inputs.write("more.csv", Self.csv).path, "--list", "more"])
        let deleted = try catalog.run(["lists", "delete", "seoul"])
        let created = try catalog.run(["tokens", "create", "another"])
        for result in [imported, deleted, created] {
            #expect(result.status == 74, "\(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("Error: ") && lines[0].contains("read-only"), "\(result.stderr)")
        }
        // And nothing changed.
        let lists = try catalog.run(["lists", "--json"])
        #expect(try Self.json(lists.stdout) as? NSArray == [["name": "seoul", "count": 4]] as NSArray)
        #expect(try catalog.names() == catalog.namesWhenLocked)
    }

    @Test("serve answers reads, and a write with 503 read_only naming no path", .enabled(if: canRunUnprivileged), arguments: Lock.allCases)
    func serveReadsOnly(_ lock: Lock) throws {
        let catalog = try LockedCatalog(lock)
        let server = try Server(db: catalog.db, executable: catalog.executable, launcher: Self.launcher)
        defer { server.stop() }

        let lists = try server.request("GET /lists")
        #expect(lists.status == 200, "\(lists.body)")
        #expect(lists.body.contains("\"seoul\""), "\(lists.body)")
        let stores = try server.request("GET /lists/seoul/stores")
        #expect(stores.status == 200 && stores.body.contains("\"s4\""), "\(stores.body)")
        let near = try server.request("GET /stores/near?lat=37.55&lng=126.93&limit=1")
        #expect(near.status == 200 && near.body.contains("\"s3\""), "\(near.body)")
        let clusters = try server.request("GET /lists/seoul/clusters?zoom=20&south=37&west=126&north=38&east=128")
        #expect(clusters.status == 200 && clusters.body.contains("\"s2\""), "\(clusters.body)")

        let write = try server.request(
            "POST /lists/more/import?format=csv", headers: ["Authorization: Bearer \(catalog.writeToken)"], body: Self.csv)
        #expect(write.status == 503, "\(write.body)")
        let error = (try Self.json(write.body) as? [String: Any])?["error"] as? [String: Any]
        #expect(error?["code"] as? String == "read_only", "\(write.body)")
        #expect(!write.body.contains(catalog.folder), "\(write.body)")

        #expect(try server.request("GET /lists").body.contains("\"count\":4"))
        let status = server.stop()
        #expect(status == 0, "\(server.log)")
        #expect(try catalog.names() == catalog.namesWhenLocked)
    }

    /// `carousel serve --port 0` running in the background, and a minimal
    /// HTTP/1.1 client for it (one request per connection).
    final class Server {
        let process = Process()
        let logFile: URL
        let logDirectory: TemporaryDirectory
        let port: Int

        init(db: String, executable: URL, launcher: [String]) throws {
            logDirectory = try TemporaryDirectory("carousel-read-only-log")
            logFile = logDirectory.path("serve.log")
            FileManager.default.createFile(atPath: logFile.path, contents: nil)
            let handle = try FileHandle(forWritingTo: logFile)
            let command = launcher + [executable.path, "serve", "--db", db, "--port", "0"]
            process.executableURL = URL(fileURLWithPath: command[0])
            process.arguments = Array(command.dropFirst())
            var environment = ProcessInfo.processInfo.environment
            environment["CAROUSEL_DB"] = nil
            process.environment = environment
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            try handle.close()
            // "carousel serving PATH on http://127.0.0.1:PORT/", within
            // generous seconds: CI's machines are loaded.
            let deadline = Date().addingTimeInterval(60)
            var found: Int?
            while found == nil, Date() < deadline, process.isRunning {
                let text = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
                if let range = text.range(of: "http://127.0.0.1:") {
                    found = Int(text[range.upperBound...].prefix { $0.isNumber })
                } else {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            guard let found else {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
                throw Failure("serve did not start: \((try? String(contentsOf: logFile, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

        /// SIGTERM, then its exit status (once; later calls return it again).
        @discardableResult
        func stop() -> Int32 {
            if process.isRunning {
                kill(process.processIdentifier, SIGTERM)
                process.waitUntilExit()
            }
            return process.terminationStatus
        }

        struct Answer {
            var status: Int
            var body: String
        }

        /// Sends `line` ("GET /path") with `headers` and `body`, and reads the
        /// whole answer (`Connection: close`).
        func request(_ line: String, headers: [String] = [], body: String = "") throws -> Answer {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
            defer { close(descriptor) }
            var timeout = timeval(tv_sec: 60, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw Failure("connect: \(String(cString: strerror(errno)))") }
            var head = "\(line) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
            for header in headers { head += header + "\r\n" }
            if !body.isEmpty { head += "Content-Type: text/csv\r\nContent-Length: \(body.utf8.count)\r\n" }
            let bytes = Array((head + "\r\n" + body).utf8)
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { throw Failure("send: \(String(cString: strerror(errno)))") }
                sent += n
            }
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if n < 0 { throw Failure("recv: \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                received += buffer[..<n]
            }
            let text = String(decoding: received, as: UTF8.self)
            guard let end = text.range(of: "\r\n\r\n"), let status = Int(text.split(separator: " ").dropFirst().first ?? "") else {
                throw Failure("not an HTTP answer: \(text)")
            }
            // A chunked body's size lines are left in: the tests look for
            // members, which a chunk boundary does not split at this size.
            return Answer(status: status, body: String(text[end.upperBound...]))
        }
    }
}
