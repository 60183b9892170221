import ArgumentParser
import Foundation
import MapCamera
import MapSync
import MapSyncSimulation

extension Carousel {
    /// `carousel simulate`: a scroll script's map-target timeline.
    struct Simulate: ParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
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
                {"t","type":"marker","index","storeId","previousIndex"}, and with the ACCESSIBILITY \
                flags (or the script's keys and events of the same meaning) {"t","type":"status",\
                "index","text"} (what a screen reader speaks) and {"t","type":"autoplay","playing",\
                "reasons"}; --trace adds frame (offset, focus, direction), release (velocity, projected, \
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

        @OptionGroup(title: "Accessibility")
        var accessibility: AccessibilityOptions

        @Flag(help: "Print JSON Lines, one object per timeline entry, each as it is produced.")
        var json = false

        @OptionGroup(title: "Limits")
        var limits: SimulationLimitOptions

        func run() throws {
            let script = try Self.readScript(at: script, layout: layout, map: map, accessibility: accessibility)
            let stores = try WaitingStoreDirectory(engine: database.openEngineWaiting(access: .read), list: list)
            if json {
                // Each line as it is produced: memory stays flat however
                // long the timeline (a million-event script included).
                try Self.simulate(script, stores: stores, trace: trace, limits: limits.limits, source: self.script) { entry in
                    print(TimelineOutput.json(entry))
                }
            } else {
                let simulation = try Self.simulate(
                    script, stores: stores, trace: trace, limits: limits.limits, source: self.script)
                let output = TimelineOutput(timeline: simulation.timeline) { try stores.store(at: $0).name }
                print(try output.table())
            }
        }

        /// Reads the script at `path` with the LAYOUT flags laid over its
        /// layout and the MAP flags, if any, over its map; a file that is not
        /// JSON is reported by line and column. Its events stay in the file, read one at a time as the simulation
        /// runs: a million-event script runs in flat memory.
        static func readScript(
            at path: String, layout: LayoutOptions, map: MapOptions? = nil, accessibility: AccessibilityOptions? = nil
        ) throws -> ScrollScriptFile {
            do {
                try FileHandle(forReadingFrom: URL(fileURLWithPath: path)).close()
            } catch {
                let report = ErrorReport(error)
                throw CLIError("cannot read the script: \(report.message)", status: report.status)
            }
            var file: ScrollScriptFile
            do {
                file = try ScrollScriptFile(path: path)
                file.script = layout.applied(to: file.script)
            } catch {
                // JSON that breaks is reported where editors jump to it.
                if let line = error.line {
                    let event = error.event.map { "event \($0): " } ?? ""
                    throw CLIError("\(path):\(line):\(error.column ?? 1): \(event)\(error.reason)", status: .badData)
                }
                throw CLIError("\(path): \(error)", status: .badData)
            }
            if let map, !map.isEmpty {
                file.script.map = try map.applied(to: file.script.map ?? MapFraming(zoom: file.script.resolvedZoom))
            }
            if let zoom = layout.zoom { file.script.map?.zoom = zoom }
            if let framing = file.script.map { file.script.map = try MapOptions.validated(framing) }
            if let accessibility { file.script = try accessibility.applied(to: file.script) }
            return file
        }

        /// Runs `script` over `stores`, collecting the timeline; a script
        /// error names its file, a limit reached the flag that raises it.
        static func simulate(
            _ script: ScrollScriptFile, stores: some StoreDirectory, trace: Bool, until time: Double? = nil,
            limits: SimulationLimits, source: String
        ) throws -> ScrollSimulation.Outcome {
            let simulator = try simulator(script, stores: stores, source: source)
            return try SimulationLimitOptions.naming { try simulator.run(trace: trace, until: time, limits: limits) }
        }

        /// Runs `script` over `stores`, handing each timeline entry to
        /// `onEntry` as it is produced.
        @discardableResult
        static func simulate(
            _ script: ScrollScriptFile, stores: some StoreDirectory, trace: Bool, until time: Double? = nil,
            limits: SimulationLimits, source: String, onEntry: @escaping @Sendable (TimelineEntry) throws -> Void
        ) throws -> ScrollSimulation.Outcome {
            let simulator = try simulator(script, stores: stores, source: source)
            return try SimulationLimitOptions.naming {
                try simulator.run(trace: trace, until: time, limits: limits, onEntry: onEntry)
            }
        }

        private static func simulator(_ script: ScrollScriptFile, stores: some StoreDirectory, source: String) throws -> ScrollSimulation {
            do {
                return try ScrollSimulation(file: script, stores: stores)
            } catch {
                throw CLIError("\(source): \(error)", status: .badData)
            }
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
