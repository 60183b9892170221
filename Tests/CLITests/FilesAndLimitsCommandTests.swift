import Foundation
import Synchronization
import TestSupport
import Testing

/// The command lines of an outside probe of the release binary: lists that
/// share ids, endless or garbage inputs, special files as outputs and
/// databases, full disks, and names with invisible characters.
@Suite("Files, limits and names")
struct FilesAndLimitsCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// A failing exit status (not a signal's) and one line on stderr that
    /// contains `message`.
    private func expectOneLineError(
        _ result: CarouselProcess.Result, _ message: String, status: Int32? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status != 0 && result.status < 128, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        if let status { #expect(result.status == status, "\(result.stderr)", sourceLocation: sourceLocation) }
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test("a.csv then b.csv with the same id: list a keeps its store, through b's import, replace and delete")
    func listsWithTheSameIdStayApart() throws {
        let workspace = try Workspace()
        let a = try workspace.write("a.csv", "id,name,latitude,longitude,phone\ns1,Original Store,37.5,127.0,02-111\n")
        let b = try workspace.write("b.csv", "id,name,latitude,longitude\ns1,Hijacked,1.0,2.0\n")
        #expect(try workspace.run(["import", a, "--list", "a"]).status == 0)
        let storesOfA = try workspace.run(["stores", "--list", "a", "--json"]).stdout

        #expect(try workspace.run(["import", b, "--list", "b"]).status == 0)
        #expect(try workspace.run(["stores", "--list", "a", "--json"]).stdout == storesOfA)
        #expect(storesOfA.contains("Original Store") && storesOfA.contains("02-111"))
        #expect(try workspace.run(["stores", "--list", "b", "--json"]).stdout.contains("Hijacked"))

        #expect(try workspace.run(["import", b, "--list", "b", "--replace"]).status == 0)
        #expect(try workspace.run(["stores", "--list", "a", "--json"]).stdout == storesOfA)
        #expect(try workspace.run(["lists", "delete", "b"]).status == 0)
        #expect(try workspace.run(["stores", "--list", "a", "--json"]).stdout == storesOfA)
        let near = try workspace.run(["near", "--lat", "37.5", "--lng", "127.0", "--limit", "5", "--json"])
        #expect(near.stdout.contains("Original Store") && !near.stdout.contains("Hijacked"))
    }

    @Test("an endless line (/dev/zero) fails at the row limit with its line, exit 65")
    func endlessInputStops() throws {
        let workspace = try Workspace()
        let result = try workspace.run(["import", "/dev/zero", "--format", "csv", "--list", "z", "--max-row-bytes", "65536"])
        expectOneLineError(result, "longer than 65536 bytes", status: 65)
        #expect(result.stderr.contains("/dev/zero:1:"))
    }

    @Test("garbage stops with too many errors: the first issues listed, all counted, exit 65")
    func garbageStopsWithTooManyErrors() throws {
        let workspace = try Workspace()
        let lines = (0..<500).map { "not json \($0)" }.joined(separator: "\n")
        let file = try workspace.write("bad.jsonl", lines + "\n")

        let result = try workspace.run(["import", file, "--list", "bad", "--skip-invalid", "--max-issues", "30", "--json"])

        #expect(result.status == 65, "\(result.stderr)")
        let report = try #require(try CatalogCommandTests.json(result.stdout) as? [String: Any])
        #expect((report["errors"] as? [Any])?.count == 30)
        #expect(report["rejected"] as? Int == 31)
        #expect(report["errorCount"] as? Int == 31)
        #expect(report["stoppedEarly"] as? Bool == true)
        #expect((report["errorCounts"] as? [String: Int]) == ["row": 31])
        #expect(result.stderr.contains("too many errors"))
        #expect(try workspace.run(["lists", "--json"]).stdout == "[]\n")
        let human = try workspace.run(["import", file, "--list", "bad"])
        #expect(human.status == 65)
        #expect(human.stdout.contains("… and 81 more (101 in all: 101 row)"), "\(human.stdout)")
        #expect(human.stdout.contains("Too many errors"))
    }

    @Test("export --output into a FIFO, a device or through a symlink writes into them, never replacing them")
    func exportIntoSpecialFiles() throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        #expect(try workspace.run(["import", csv, "--list", "s"]).status == 0)

        // /dev/full: the write fails, exit 74, and it stays a device.
        let full = try workspace.run(["export", "s", "--format", "csv", "--output", "/dev/full"])
        expectOneLineError(full, "No space left on device", status: 74)
        var status = stat()
        #expect(stat("/dev/full", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
        // /dev/null: a stream, exit 0, still a device.
        #expect(try workspace.run(["export", "s", "--format", "csv", "--output", "/dev/null"]).status == 0)
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)

        // A symbolic link to a file: the file gets the export, the link stays.
        let target = workspace.directory.path("real.csv").path
        let link = workspace.directory.path("link.csv").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
        #expect(try workspace.run(["export", "s", "--output", link]).status == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.csv")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("id,"))

        // A FIFO: written as a stream to its reader.
        let fifo = workspace.directory.path("pipe.csv").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Read to the end, as `cat` would (Data(contentsOf:) reads a FIFO's
        // size, 0, and closes it, leaving the writer waiting for a reader).
        let received = Mutex(Data())
        let reader = Thread {
            guard let handle = FileHandle(forReadingAtPath: fifo) else { return }
            received.withLock { $0 = handle.readDataToEndOfFile() }
        }
        reader.start()
        #expect(try workspace.run(["export", "s", "--output", fifo]).status == 0)
        for _ in 0..<500 where received.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.01) }
        #expect(String(decoding: received.withLock { $0 }, as: UTF8.self).hasPrefix("id,"))
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

        // A folder is refused in one line.
        expectOneLineError(try workspace.run(["export", "s", "--format", "csv", "--output", workspace.directory.path("").path]), "folder")
    }

    @Test(
        "every command whose output cannot be written exits 74",
        arguments: [
            ["lists"], ["lists", "--json"], ["info"], ["stores", "--list", "s"],
            ["simulate", "--list", "s", "--script", "SampleData/scripts/gentle-swipe.json", "--json"],
        ])
    func fullDiskExits74(arguments: [String]) throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        #expect(try workspace.run(["import", csv, "--list", "s"]).status == 0)
        let command =
            ([CarouselProcess.executable.path] + arguments + ["--db", workspace.db])
            .map { "'\($0)'" }.joined(separator: " ") + " > /dev/full"
        let result = try Self.shell(command, in: Paths.packageRoot)
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("cannot write to standard output"), "\(result.stderr)")
    }

    static func shell(_ command: String, in directory: URL) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = directory
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test("--db that is not a regular file is refused in one line, nothing created beside it")
    func databaseMustBeARegularFile() throws {
        let workspace = try Workspace()
        let result = try CarouselProcess.run(["lists", "--db", "/dev/null"])
        expectOneLineError(result, "not a regular file")
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal"))
        let folder = try CarouselProcess.run(["lists", "--db", workspace.directory.path("").path])
        expectOneLineError(folder, "a folder, not a regular file")
    }

    @Test("simulate and focus with a folder as --script: one line, no trap", arguments: ["simulate", "focus"])
    func scriptFolderIsAnError(command: String) throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        #expect(try workspace.run(["import", csv, "--list", "s"]).status == 0)
        let result = try workspace.run([command, "--list", "s", "--script", workspace.directory.path("").path])
        expectOneLineError(result, "it is a folder")
    }

    @Test("a catalog whose user_version was set to 1 or -1 is 'not a carousel database'", arguments: [1, -1])
    func wrongVersionIsNotACatalog(version: Int) throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        #expect(try workspace.run(["import", csv, "--list", "s"]).status == 0)
        let set = try Self.shell("sqlite3 '\(workspace.db)' 'PRAGMA user_version = \(version)'", in: Paths.packageRoot)
        try #require(set.status == 0, "\(set.stderr)")
        expectOneLineError(try workspace.run(["lists"]), "is not a carousel database", status: 65)
    }

    @Test(
        "a list name or a store id with a control or invisible format character is refused",
        arguments: [
            "a\u{0}b", "a\u{7}b", "a\u{202E}b", "a\u{200B}b", "a\u{2028}b",
        ])
    func invisibleCharactersAreRefused(name: String) throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        if !name.contains("\u{0}") {  // argv cannot carry a NUL
            expectOneLineError(try workspace.run(["import", csv, "--list", name]), "a list name cannot hold U+")
        }
        let file = try workspace.write("ids.csv", "id,name,latitude,longitude\n\(name),A,1,2\nok,B,1,2\n")
        let result = try workspace.run(["import", file, "--list", "ids", "--json"])
        #expect(result.status == 65)
        #expect(result.stdout.contains("the id holds U+"), "\(result.stdout)")
    }
}
