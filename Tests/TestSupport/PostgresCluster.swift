import Foundation
import Testing

/// A throwaway PostgreSQL 15 cluster for the tests: `initdb` into a
/// temporary directory, started on a Unix socket (and, for the TLS tests
/// only, on a free port of 127.0.0.1 with a self-signed certificate),
/// stopped and removed at the end.
///
/// PostgreSQL refuses to run as root (CI runs as root): then the cluster
/// runs as the `postgres` user through `runuser`, in a directory it owns.
public final class PostgresCluster: @unchecked Sendable {
    public static let binaries = URL(fileURLWithPath: "/usr/lib/postgresql/15/bin")

    public let directory: URL
    public var socketDirectory: String { directory.appendingPathComponent("socket").path }
    public let user = "postgres"
    /// The TCP port on 127.0.0.1, for a cluster started with TLS.
    public private(set) var port: Int?

    /// Whether PostgreSQL (and PostGIS) can run here: when not, the test is
    /// skipped with a message, except under CI, where it fails.
    public static var available: Bool {
        FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent("initdb").path)
            && FileManager.default.fileExists(atPath: "/usr/share/postgresql/15/extension/postgis.control")
    }

    public static let missingMessage =
        "PostgreSQL 15 + PostGIS 3 are not installed (scripts/install-system-deps installs them): test skipped"

    /// Whether the binaries are missing where they must not be.
    public static var mustRun: Bool { ProcessInfo.processInfo.environment["CI"] != nil }

    /// Runs `body` with a cluster of its own, stopped after (initdb takes
    /// about a second). Without PostgreSQL the test is skipped with a
    /// line, unless `CI` is set: there it fails.
    public static func with(tls: Bool = false, _ body: (PostgresCluster) async throws -> Void) async throws {
        guard let cluster = try startIfAvailable(tls: tls) else { return }
        defer { cluster.stop() }
        try await body(cluster)
    }

    /// A started cluster (the caller stops it), or nil without PostgreSQL:
    /// the test is then skipped with a line, unless `CI` is set, where it
    /// fails.
    public static func startIfAvailable(tls: Bool = false) throws -> PostgresCluster? {
        guard available else {
            if mustRun {
                Issue.record("CI is set but \(missingMessage)")
            } else {
                print(missingMessage)
            }
            return nil
        }
        return try PostgresCluster(tls: tls)
    }

    public init(tls: Bool = false) throws {
        directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("carousel-pg-\(UUID().uuidString.prefix(8))")
        let data = directory.appendingPathComponent("data").path
        try FileManager.default.createDirectory(atPath: socketDirectory, withIntermediateDirectories: true)
        if getuid() == 0 { try run("/bin/chown", ["-R", "postgres:postgres", directory.path], asPostgres: false) }
        try run(
            Self.binaries.appendingPathComponent("initdb").path,
            ["-D", data, "-U", user, "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"])
        // Sockets only; fsync off: a test cluster needs no durability.
        var options = "-c listen_addresses='' -c unix_socket_directories='\(socketDirectory)' -c fsync=off -c max_connections=40"
        if tls {
            // PostgreSQL speaks TLS over TCP only. A certificate for
            // localhost, valid a day, its key readable by the server alone.
            try run(
                "/usr/bin/openssl",
                [
                    "req", "-new", "-x509", "-days", "1", "-nodes", "-subj", "/CN=localhost", "-keyout", data + "/server.key",
                    "-out", data + "/server.crt",
                ])
            try run("/bin/chmod", ["600", data + "/server.key"])
            let port = try Self.freePort()
            self.port = port
            options = options.replacingOccurrences(of: "listen_addresses=''", with: "listen_addresses='127.0.0.1' -c port=\(port) -c ssl=on")
        }
        serverOptions = options
        do {
            try startServer()
        } catch {
            // The server's own words say why it stopped.
            let log = (try? String(contentsOf: directory.appendingPathComponent("log"), encoding: .utf8)) ?? ""
            try? FileManager.default.removeItem(at: directory)
            throw ClusterError(message: "\(error); the server's log: \(log.suffix(1_000))")
        }
    }

    /// The server's `-o` options, for a start after a stop.
    private var serverOptions = ""

    /// Starts the cluster's server (again, after ``stopServer()``).
    public func startServer() throws {
        try run(
            Self.binaries.appendingPathComponent("pg_ctl").path,
            [
                "-D", directory.appendingPathComponent("data").path, "-w", "-t", "60", "-l",
                directory.appendingPathComponent("log").path, "-o", serverOptions, "start",
            ])
    }

    /// Stops the server, keeping the data: the database goes away from
    /// its clients, as in an outage, until ``startServer()``.
    public func stopServer() throws {
        try run(
            Self.binaries.appendingPathComponent("pg_ctl").path,
            ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "-t", "30", "stop"])
    }

    /// Creates `database`, with PostGIS unless told not to.
    public func createDatabase(_ database: String, postGIS: Bool = true) throws {
        try psql("postgres", "CREATE DATABASE \(database)")
        if postGIS { try psql(database, "CREATE EXTENSION postgis") }
    }

    /// The URL of `database` on this cluster's socket.
    public func url(_ database: String, user: String? = nil, password: String? = nil) -> String {
        let userInfo = (user ?? self.user) + (password.map { ":\($0)" } ?? "")
        return "postgresql://\(userInfo)@:\(port ?? 5432)/\(database)?host=\(socketDirectory)"
    }

    /// The URL of `database` over TCP with `sslmode`, for a cluster started
    /// with TLS.
    public func tcpURL(_ database: String, sslMode: String) -> String {
        "postgresql://\(user)@127.0.0.1:\(port ?? 5432)/\(database)?sslmode=\(sslMode)"
    }

    /// A port of 127.0.0.1 nobody listens on now: the kernel's choice for
    /// port 0.
    private static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ClusterError(message: "socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw ClusterError(message: "bind: \(String(cString: strerror(errno)))") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    public func psql(_ database: String, _ sql: String) throws {
        try run(
            Self.binaries.appendingPathComponent("psql").path,
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", socketDirectory, "-p", String(port ?? 5432), "-U", user, "-d", database, "-c", sql])
    }

    public func stop() {
        try? run(
            Self.binaries.appendingPathComponent("pg_ctl").path,
            ["-D", directory.appendingPathComponent("data").path, "-m", "immediate", "-w", "-t", "30", "stop"])
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a PostgreSQL tool and waits for it, its output in a file.
    ///
    /// `posix_spawn` and `waitpid`, not Foundation's `Process`: on Linux its
    /// `waitUntilExit()` never returned for `pg_ctl start` called from an
    /// async test (the server it leaves running outlives it), and the whole
    /// suite hung.
    private func run(_ executable: String, _ arguments: [String], asPostgres: Bool = true) throws {
        let argv = (asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] : []) + [executable] + arguments
        let outputPath = "/tmp/carousel-pg-command-\(UUID().uuidString.prefix(8)).log"
        defer { unlink(outputPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Nothing else of the test process: the server counts every
        // inherited descriptor against its limit, and refused to start
        // beside a busy test run ("System allows 30, we need at least 58").
        // A descriptor closed meanwhile is no error (glibc ignores EBADF
        // in a close action).
        let inherited = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in inherited.compactMap({ Int32($0) }) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            throw ClusterError(message: "cannot run \(argv[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        let exited = status & 0x7F == 0, code = (status >> 8) & 0xFF
        guard exited && code == 0 else {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            throw ClusterError(message: "\((executable as NSString).lastPathComponent) failed: \(text)")
        }
    }

    public struct ClusterError: Error, CustomStringConvertible {
        var message: String
        public var description: String { message }
    }
}
