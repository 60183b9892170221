import Foundation
import Locks
import TestSupport
import Testing

/// The exact command lines an outside reliability pass crashed, hung or
/// raced the CLI with: each is now one clear error line (or a success), never
/// a trap, a spin or a bare "database is locked".
@Suite("Hardening: no trap, no hang, no race")
struct HardeningCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// A workspace whose catalog holds the 44 sample stores as list `s`.
    private func sampleWorkspace() throws -> Workspace {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        let imported = try workspace.run(["import", csv, "--list", "s"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return workspace
    }

    /// A failing exit status (not a signal's) and one line on stderr that
    /// contains `message`.
    private func expectOneLineError(_ result: CarouselProcess.Result, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status != 0 && result.status < 128, "status \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(message), "\(result.stderr)", sourceLocation: sourceLocation)
    }

    @Test(
        "snap inputs that trapped are one-line errors",
        arguments: [
            (
                ["--count", "44", "--offset", "0", "--velocity", "0", "--loop", "--loop-padding", "4611686018427387904"],
                "loopPadding must be a whole number in 1...1000000000000"
            ),
            (["--count", "9223372036854775807", "--offset", "0", "--velocity", "1", "--loop"], "count must be a whole number in 0...1000000000000"),
            (["--count", "9223372036854775807", "--offset", "1e300", "--velocity", "1"], "count must be a whole number in 0...1000000000000"),
        ])
    func snapTrapsAreErrors(arguments: [String], message: String) throws {
        expectOneLineError(try CarouselProcess.run(["snap"] + arguments), message)
    }

    @Test("serve's numbers out of range are one-line errors before anything listens")
    func serveBoundsAreErrors() throws {
        expectOneLineError(
            try CarouselProcess.run(["serve", "--nearest-in-memory=-1"]), "--nearest-in-memory must be in 0...100000000 (got -1)")
        expectOneLineError(
            try CarouselProcess.run(["serve", "--nearest-in-memory", "9223372036854775807"]),
            "--nearest-in-memory must be in 0...100000000")
        expectOneLineError(
            try CarouselProcess.run(["serve", "--nearest-in-memory", "-33"]), "--nearest-in-memory must be in 0...100000000 (got -33)")
        for value in ["nan", "1e308", "", "99999999999999999999"] {
            expectOneLineError(try CarouselProcess.run(["serve", "--nearest-in-memory", value]), "--nearest-in-memory")
        }
        expectOneLineError(try CarouselProcess.run(["serve", "--port", "70000"]), "--port must be in 0...65535 (got 70000)")
        expectOneLineError(try CarouselProcess.run(["serve", "--port", "-1"]), "--port must be in 0...65535 (got -1)")
        let help = try CarouselProcess.run(["serve", "--help"])
        #expect(help.stdout.contains("--nearest-in-memory <entries>"), "\(help.stdout)")
    }

    @Test(
        "an empty --db is a one-line error naming the option, for every command",
        arguments: [
            ["focus", "--list", "s", "--offset", "0", "--db", ""], ["lists", "--db", ""], ["--db", "", "stores", "--list", "s"],
            ["demo", "--db", ""],
        ])
    func anEmptyDatabasePathIsAnError(arguments: [String]) throws {
        let result = try CarouselProcess.run(arguments)
        expectOneLineError(result, "--db needs a path (got an empty value)")
        #expect(result.status == 64)
    }

    @Test("focus inputs that trapped are one-line errors")
    func focusTrapsAreErrors() throws {
        let workspace = try sampleWorkspace()
        expectOneLineError(
            try workspace.run(["focus", "--list", "s", "--offset=0", "--loop", "--loop-padding", "9223372036854775807"]),
            "loopPadding must be a whole number in 1...1000000000000")
        expectOneLineError(
            try workspace.run(["focus", "--list", "s", "--offset=0", "--viewport=5e-324", "--item-fraction=1"]),
            "viewport must be a number of points in 0.001...1000000000")
    }

    @Test("scripts that ran for minutes or grew without end stop at a limit named with its flag")
    func runawayScriptsStopAtALimit() throws {
        let workspace = try sampleWorkspace()
        let drag = try workspace.write("drag.json", #"{"events": [{"at": 0, "drag": {"by": 100, "durationMs": 1e12}}]}"#)
        let animation = try workspace.write("animation.json", #"{"layout": {"animationMs": 1e15}, "events": [{"at": 0, "scrollTo": 5}]}"#)
        let fling = try workspace.write(
            "fling.json", #"{"layout": {"deceleration": 0.9999999999999999}, "events": [{"at": 0, "drag": {"by": 100, "durationMs": 100, "velocity": 3}}]}"#)
        let demo = Paths.packageRoot.appendingPathComponent("SampleData/scripts/demo.json").path
        for arguments in [
            ["simulate", "--list", "s", "--script", drag], ["simulate", "--list", "s", "--script", animation],
            ["simulate", "--list", "s", "--script", fling], ["focus", "--list", "s", "--script", drag],
            ["simulate", "--list", "s", "--script", demo, "--animation-ms=1e12"],
        ] {
            expectOneLineError(try workspace.run(arguments), "raise the limit with --max-virtual-ms")
        }
        // Raised far enough, the drag runs (its steps one at a time).
        let raised = try workspace.run(["focus", "--list", "s", "--script", drag, "--max-virtual-ms", "1e13", "--max-frames", "100"])
        expectOneLineError(raised, "more than 100 frames")
        let short = try workspace.write("short.json", #"{"events": [{"at": 0, "drag": {"by": 400, "durationMs": 300}}]}"#)
        let ok = try workspace.run(["simulate", "--list", "s", "--script", short, "--max-frames", "1000", "--json"])
        #expect(ok.status == 0, "\(ok.stderr)")
        expectOneLineError(try workspace.run(["simulate", "--list", "s", "--script", short, "--max-frames", "3"]), "raise the limit with --max-frames")
    }

    @Test("many processes opening one new database at once all succeed: one migrates, the others wait")
    func concurrentFirstOpensAllSucceed() throws {
        // Rounds of new files: the two races found (a switch to WAL refused
        // at once, a version and tables read in two states) each hit about
        // one round in a hundred, so one round proves little.
        for _ in 0..<12 {
            let workspace = try Workspace()
            let results = StateLock<[CarouselProcess.Result?]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                let result = try? workspace.run(["lists", "--json"])
                results.withLock { $0.append(result) }
            }
            let finished = results.withLock { $0 }
            #expect(finished.count == 8)
            for result in finished {
                let result = try #require(result)
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout == "[]\n")
            }
        }
    }

    @Test("parallel imports into one database wait for each other instead of failing with 'database is locked'")
    func parallelImportsWaitForEachOther() throws {
        let workspace = try Workspace()
        let csv = Paths.packageRoot.appendingPathComponent("SampleData/seoul-coffee.csv").path
        let results = StateLock<[CarouselProcess.Result?]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let result = try? workspace.run(["import", csv, "--list", "list\(index)"])
            results.withLock { $0.append(result) }
        }
        for result in results.withLock({ $0 }) {
            let result = try #require(result)
            #expect(result.status == 0, "\(result.stderr)")
        }
        let lists = try workspace.run(["lists", "--json"])
        #expect(lists.status == 0)
        let names = try #require(try CatalogCommandTests.json(lists.stdout) as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(names.sorted() == (0..<8).map { "list\($0)" }.sorted())
    }

    @Test("simulate --json streams a long timeline line by line")
    func simulateJSONStreams() throws {
        let workspace = try sampleWorkspace()
        // 2,000 taps, alternating markers: a marker line each at least.
        let events = (0..<2000).map { #"{"at": \#($0 * 10), "tapMarker": \#(1 - $0 % 2)}"# }.joined(separator: ",")
        let script = try workspace.write("taps.json", #"{"events": [\#(events)]}"#)
        let result = try workspace.run(["simulate", "--list", "s", "--script", script, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.filter { $0.contains(#""type":"marker""#) }.count == 2001)
        #expect(result.lines.allSatisfy { $0.hasPrefix(#"{"t":"#) && $0.hasSuffix("}") })
    }
}
