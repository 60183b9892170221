import Foundation
import TestSupport
import Testing

/// `carousel sync` against a real `carousel serve` (issue 45): a few
/// rounds of replaces on the server, each sync killed (SIGKILL) at a
/// random moment and run again; after each completed sync `carousel
/// export` of the replica is the server's, byte for byte.
@Suite("carousel sync")
struct SyncCommandTests {
    static func csv(_ rows: [(id: String, name: String, latitude: Double)]) -> String {
        "id,name,latitude,longitude,seats\n" + rows.map { "\($0.id),\($0.name),\($0.latitude),127.0,\($0.id.count)" }.joined(separator: "\n") + "\n"
    }

    @Test("killed syncs resume; every completed sync exports what the server exports")
    func killedSyncsResume() throws {
        let directory = try TemporaryDirectory("carousel-sync")
        let server = directory.path("server.sqlite").path, device = directory.path("device.sqlite").path
        var random = SplitMix64(seed: 4545)
        var rows = (0..<1_500).map { (id: "s\($0)", name: "Store \($0)", latitude: 37 + Double($0 % 100) / 1000) }
        let file = directory.path("list.csv")
        try Self.csv(rows).write(to: file, atomically: true, encoding: .utf8)
        #expect(try CarouselProcess.run(["import", file.path, "--list", "chain", "--db", server]).status == 0)
        let serve = try ServeProcess(["--db", server, "--port", "0"], log: directory.path("serve.log"))
        defer {
            serve.process.terminate()
            serve.process.waitUntilExit()
        }
        let port = try #require(serve.waitUntilServing(), "\(serve.text)")
        let url = "http://127.0.0.1:\(port)"
        var killed = 0
        for round in 0..<4 {
            if round > 0 {
                for _ in 0..<20 {
                    let index = Int.random(in: 0..<rows.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: rows.remove(at: index)
                    case 1: rows[index].name = "Renamed \(round)"
                    default: rows.insert((id: "r\(round)-\(index)", name: "New", latitude: 36.5), at: index)
                    }
                }
                try Self.csv(rows).write(to: file, atomically: true, encoding: .utf8)
                let replaced = try CarouselProcess.run(["import", file.path, "--list", "chain", "--replace", "--db", server])
                #expect(replaced.status == 0, "\(replaced.stderr)")
            }
            // A sync in small pages, killed at a random moment.
            let process = Process()
            process.executableURL = CarouselProcess.executable
            process.arguments = ["sync", "--from", url, "--list", "chain", "--page-size", "20", "--db", device]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            usleep(UInt32.random(in: 20_000...400_000, using: &random))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
            }
            process.waitUntilExit()

            let sync = try CarouselProcess.run(["sync", "--from", url, "--list", "chain", "--db", device])
            #expect(sync.status == 0, "\(sync.stderr)")
            #expect(sync.stdout.hasPrefix("synced 'chain' from \(url): "), "\(sync.stdout)")
            let theirs = try CarouselProcess.run(["export", "chain", "--format", "csv", "--db", server])
            let ours = try CarouselProcess.run(["export", "chain", "--format", "csv", "--db", device])
            #expect(theirs.status == 0 && ours.status == 0)
            #expect(ours.stdout == theirs.stdout, "round \(round)")
        }
        // Whether a kill landed mid-sync depends on the machine's speed;
        // correctness is checked either way.
        _ = killed
    }

    @Test("bad arguments and unreachable servers are one-line errors")
    func errors() throws {
        let directory = try TemporaryDirectory("carousel-sync-errors")
        let device = directory.path("device.sqlite").path
        let scheme = try CarouselProcess.run(["sync", "--from", "ftp://x", "--list", "a", "--db", device])
        #expect(scheme.status == 64)
        #expect(scheme.stderr.contains("--from must be an http:// or https:// URL"))
        let unreachable = try CarouselProcess.run(["sync", "--from", "http://127.0.0.1:1", "--list", "a", "--db", device])
        #expect(unreachable.status == 74)
        #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(unreachable.stderr)")
    }
}
