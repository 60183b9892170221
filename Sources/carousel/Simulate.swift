import ArgumentParser
import Foundation
import MapCamera
import MapSync
import MapSyncCatalog

extension Carousel {
    /// `carousel simulate`: a scroll script's map-target timeline.
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Simulate a scroll script and print the map-target timeline.",
            discussion: """
                Replays the script's gestures on the carousel in virtual time and prints when the \
                map camera moves and which marker is selected: the focused card, debounced \
                (--debounce-ms, default 250) and distinct, plus the initial card at t = 0 and \
                tapped markers at once. LAYOUT flags override the script's layout, MAP flags its \
                map object (the map the carousel covers: cameras framed by --framing \
                center|inset|fit|keep, each with its transition from the previous one).
                --json prints JSON Lines: {"t","type":"camera","index","storeId","latitude",\
                "longitude","zoom"} (with a map also "target", "padding" and "animation") and \
                {"t","type":"marker","index","storeId","previousIndex"}; \
                --trace adds frame (offset, focus, direction), release (velocity, projected, \
                targetOffset, index, motion), jump (from, to) and scroll (index, targetOffset, \
                animated) lines. t is in ms of virtual time.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list the carousel shows.")
        var list: String

        @Option(help: ArgumentHelp("The scroll script (JSON; see SampleData/scripts).", valueName: "file"))
        var script: String

        @Flag(help: "Also print frames, releases, loop jumps and commanded scrolls.")
        var trace = false

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @OptionGroup(title: "Map")
        var map: MapOptions

        @Flag(help: "Print JSON Lines, one object per timeline entry.")
        var json = false

        func run() throws {
            let script = try Self.readScript(at: script, layout: layout, map: map)
            let stores = try CatalogStoreDirectory(catalog: database.openCatalog(), list: list)
            let simulation = try Self.simulate(script, stores: stores, trace: trace, source: self.script)
            let output = TimelineOutput(timeline: simulation.timeline) { try stores.store(at: $0).name }
            print(json ? output.jsonLines() : try output.table())
        }

        /// Reads the script at `path` with the LAYOUT flags laid over its
        /// layout and the MAP flags, if any, over its map; a file that is not
        /// JSON is reported by line and column.
        static func readScript(at path: String, layout: LayoutOptions, map: MapOptions? = nil) throws -> ScrollScript {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                let report = ErrorReport(error)
                throw CLIError("cannot read the script: \(report.message)", status: report.status)
            }
            if let failure = JSONSyntax.firstError(in: Array(data)) {
                throw CLIError("\(path):\(failure.line):\(failure.column): not valid JSON: \(failure.reason)", status: .badData)
            }
            var script: ScrollScript
            do {
                script = layout.applied(to: try ScrollScript(json: data))
            } catch {
                throw CLIError("\(path): \(error)", status: .badData)
            }
            if let map, !map.isEmpty {
                script.map = try map.applied(to: script.map ?? MapFraming(zoom: script.resolvedZoom))
            }
            if let zoom = layout.zoom { script.map?.zoom = zoom }
            if let framing = script.map { script.map = try MapOptions.validated(framing) }
            return script
        }

        /// Runs `script` over `stores`; a script error names its file.
        static func simulate(
            _ script: ScrollScript, stores: some StoreDirectory, trace: Bool, until time: Double? = nil, source: String
        ) throws -> ScrollSimulation.Outcome {
            let simulator: ScrollSimulation
            do {
                simulator = try ScrollSimulation(script: script, stores: stores)
            } catch {
                throw CLIError("\(source): \(error)", status: .badData)
            }
            return try simulator.run(trace: trace, until: time)
        }
    }
}

extension LayoutOptions {
    /// `script` with every LAYOUT flag given here laid over its layout,
    /// `--debounce-ms` and `--zoom` included.
    func applied(to script: ScrollScript) -> ScrollScript {
        var script = script
        script.layout = applied(to: script.layout)
        script.debounceMs = debounceMs ?? script.debounceMs
        script.zoom = zoom ?? script.zoom
        return script
    }
}
