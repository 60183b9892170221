import Foundation
import TestSupport
import Testing

/// A kill at any moment of an import leaves the database as it was.
@Suite("Catalog atomicity")
struct CatalogAtomicityTests {
    @Test("SIGKILL in the middle of a big import leaves the earlier lists intact and the database sound")
    func killedImportChangesNothing() throws {
        let directory = try TemporaryDirectory("carousel-kill")
        let db = directory.path("catalog.sqlite").path
        let small = try directory.write("small.csv", "id,name,latitude,longitude\nk1,Kept,37.5,127\nk2,Also kept,35.1,129\n")
        #expect(try CarouselProcess.run(["import", small.path, "--list", "kept", "--db", db]).status == 0)
        let before = try CarouselProcess.run(["stores", "--list", "kept", "--json", "--db", db]).stdout

        // 200,000 generated rows (seed 7), one of them reusing a kept id so
        // that the import also updates an existing store before it dies.
        var random = SplitMix64(seed: 7)
        var csv = "id,name,latitude,longitude,note\nk1,Overwritten,1,1,x\n"
        csv.reserveCapacity(9_000_000)
        for index in 0..<200_000 {
            let latitude = Double.random(in: -90...90, using: &random)
            let longitude = Double.random(in: -180...180, using: &random)
            csv += "g\(index),Generated \(index),\(latitude),\(longitude),n\(index % 97)\n"
        }
        let big = try directory.write("big.csv", csv)

        let process = Process()
        process.executableURL = CarouselProcess.executable
        process.arguments = ["import", big.path, "--list", "big", "--db", db]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill once the import is writing: its uncommitted pages reach the
        // WAL when SQLite's cache spills.
        let wal = db + "-wal"
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            let size = (try? FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int) ?? 0
            if size > 2_000_000 { break }
            usleep(2_000)
        }
        let killedMidway = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(killedMidway, "the import finished before it could be killed; make the file bigger")
        #expect(process.terminationReason == .uncaughtSignal)

        let integrity = Process()
        let pipe = Pipe()
        integrity.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        integrity.arguments = ["sqlite3", db, "PRAGMA integrity_check"]
        integrity.standardOutput = pipe
        try integrity.run()
        integrity.waitUntilExit()
        let verdict = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(verdict.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")

        let lists = try CarouselProcess.run(["lists", "--json", "--db", db])
        #expect(lists.status == 0, "\(lists.stderr)")
        #expect(lists.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == #"[{"name":"kept","count":2}]"#)
        #expect(try CarouselProcess.run(["stores", "--list", "kept", "--json", "--db", db]).stdout == before)
    }
}
