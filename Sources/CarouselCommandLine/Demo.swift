import ArgumentParser
import CarouselEngine
import CarouselJSON
import CatalogServing
import Foundation
import MapSync
import MapSyncSimulation
import StoreCatalog

extension Carousel {
    /// `carousel demo`: the main job on the embedded sample data, no setup.
    struct Demo: ParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "demo",
            abstract: "Run the main job on the bundled sample data.",
            discussion: """
                Imports the 44 sample stores (SampleData/seoul-coffee.csv, built into the binary) \
                into a temporary database — or, with an explicit --db PATH, into that database as the \
                list "seoul-coffee" (replaced; $CAROUSEL_DB is not used) — replays \
                the demo scroll script (SampleData/scripts/demo.json) and prints when the map camera \
                moves and which marker is selected. The script's map is a 390 × 844 view whose bottom \
                240 pt the carousel covers, so every camera frames its store in the visible rest and \
                says how to get there (fly or jump). Works from any directory.
                """
        )

        /// The list the demo imports the sample stores as.
        static let listName = "seoul-coffee"

        /// `--db PATH` (also accepted before `demo`, as everywhere): import
        /// into that database instead of a temporary one. Only an explicit
        /// `--db` counts — the demo never writes into `$CAROUSEL_DB` or the
        /// per-user default on its own.
        @OptionGroup var database: DatabaseOptions
        private var path: String? { database.path }

        @Flag(help: "Also print frames, releases, loop jumps and commanded scrolls.")
        var trace = false

        @Flag(help: "Print JSON Lines, one object per timeline entry, as `simulate --json`.")
        var json = false

        @OptionGroup(title: "Limits")
        var limits: SimulationLimitOptions

        func run() throws {
            let scratch = FileManager.default.temporaryDirectory
                .appendingPathComponent("carousel-demo-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }

            // The importer streams from a file: give it the embedded CSV as one.
            let csv = scratch.appendingPathComponent("seoul-coffee.csv")
            try Data(PackageResources.seoul_coffee_csv).write(to: csv)
            let catalog = try Catalog(path: path.map(DatabaseOptions.sqliteOnly) ?? scratch.appendingPathComponent("demo.sqlite").path)
            let report = try catalog.importList(
                named: Self.listName, from: makeStoreRowReader(for: csv, format: .csv), options: ImportOptions(replace: true))

            let script = try ScrollScript(json: Data(PackageResources.demo_json))
            let stores = try WaitingStoreDirectory(engine: catalog, list: Self.listName)
            let simulator = try ScrollSimulation(script: script, stores: stores)
            let simulation = try SimulationLimitOptions.naming { try simulator.run(trace: trace, limits: limits.limits) }
            let output = TimelineOutput(timeline: simulation.timeline) { try stores.store(at: $0).name }
            if json {
                print(output.jsonLines())
            } else {
                print(Self.header(script: script, imported: report.imported, database: path))
                print(try output.table())
            }
        }

        /// What is about to be shown, in words: the data, the carousel, the gestures.
        static func header(script: ScrollScript, imported: Int, database: String?) -> String {
            let layout = script.layout
            let cards = """
                a \(NumberFormatting.rounded(layout.viewport ?? 390))-pt carousel of \
                \(NumberFormatting.rounded(layout.itemLength ?? 300))-pt cards \
                (\((layout.behavior ?? LayoutSpec.defaultBehavior).rawValue))
                """
            var lines = [
                "carousel demo: swiping store cards moves the map, tapping a marker scrolls the cards.",
                "",
                "Imported \(imported) Haneul Coffee stores (SampleData/seoul-coffee.csv) into "
                    + (database.map { "\($0) as list \"\(listName)\"." } ?? "a temporary database."),
                "Replaying SampleData/scripts/demo.json on \(cards).",
                "The map follows the focused card \(NumberFormatting.rounded(script.resolvedDebounceMs)) ms after the carousel stops, "
                    + "once per change; a marker tap selects at once.",
            ]
            if let map = script.map {
                lines.append(
                    "The map is a \(NumberFormatting.rounded(map.mapWidth)) × \(NumberFormatting.rounded(map.mapHeight)) view "
                        + "whose bottom \(NumberFormatting.rounded(map.insets.bottom)) pt the carousel covers; "
                        + "\(map.mode.rawValue) framing puts each store in the middle of the rest,")
                lines.append(
                    "flying there as MapLibre's flyTo, or jumping when a flight would pass \(NumberFormatting.rounded(map.maxDurationMs)) ms.")
            }
            lines.append("")
            let times = script.events.map { NumberFormatting.rounded($0.at) + " ms" }
            let width = times.map(\.count).max() ?? 0
            for (time, event) in zip(times, script.events) {
                lines.append("  " + String(repeating: " ", count: width - time.count) + time + "  " + describe(event.action))
            }
            lines.append("")
            return lines.joined(separator: "\n")
        }

        /// A script event in words.
        static func describe(_ action: ScrollScript.Action) -> String {
            switch action {
            case let .drag(by, durationMs, velocity):
                let lift = velocity.map { ", lifting at \(NumberFormatting.rounded($0)) pt/ms" } ?? ""
                return "drag \(NumberFormatting.rounded(by)) pt over \(NumberFormatting.rounded(durationMs)) ms\(lift)"
            case let .offset(offset):
                return "offset reported at \(NumberFormatting.rounded(offset)) pt"
            case let .scrollTo(index, animated):
                return "the app scrolls to card #\(index)\(animated ? ", animated" : "")"
            case let .tapMarker(index):
                return "the user taps marker #\(index) on the map"
            case .end:
                return "the session ends"
            case .autoplay(let play):
                return play ? "the user plays autoplay" : "the user stops autoplay"
            case let .pause(reason, on):
                return "autoplay pause \(reason.rawValue) \(on ? "begins" : "ends")"
            case .accessibilityScroll(let direction):
                return "VoiceOver pages to the \(direction.rawValue) store"
            }
        }
    }
}
