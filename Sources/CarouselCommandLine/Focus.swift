import ArgumentParser
import CarouselEngine
import CarouselJSON
import CatalogServing
import Foundation
import MapSync
import MapSyncSimulation
import StoreCatalog

extension Carousel {
    /// `carousel focus`: the focused store at an offset, or after a scroll script.
    struct Focus: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "focus",
            abstract: "The focused store at an offset or after a scroll script.",
            discussion: """
                With --offset X: the card whose anchor is nearest the viewport's at content offset X \
                (round(X / page), never "the last visible card"). With --script FILE: where the \
                simulated scroll leaves the carousel, at its end or at --at MS. Prints \
                {"index", "store", "visible": [{"index", "fraction", "scale"}]}; index is the store's \
                list position (null for an empty list), fraction the visible share of each card and \
                scale = minScale + (1 − minScale) · fraction.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list the carousel shows.")
        var list: String

        @Option(parsing: .unconditional, help: ArgumentHelp("Content offset, in points.", valueName: "X"))
        var offset: Double?

        @Option(help: ArgumentHelp("A scroll script to simulate instead of --offset.", valueName: "file"))
        var script: String?

        @Option(parsing: .unconditional, help: ArgumentHelp("With --script: the time to stop at, in ms.", valueName: "MS"))
        var at: Double?

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @Flag(help: #"Print one JSON object: {"index", "store", "visible"}."#)
        var json = false

        @OptionGroup(title: "Limits (with --script)")
        var limits: SimulationLimitOptions

        func validate() throws {
            if at != nil, script == nil {
                throw CLIError("--at MS needs --script FILE: it is a time in the script's simulation")
            }
            guard (offset == nil) != (script == nil) else {
                throw CLIError(offset == nil ? "give --offset X or --script FILE" : "give either --offset X or --script FILE, not both")
            }
            if let offset, !offset.isFinite {
                throw CLIError("--offset must be a finite number (got \(offset))")
            }
            if let at {
                guard at.isFinite, at >= 0 else { throw CLIError("--at must be a finite number of ms ≥ 0 (got \(at))") }
            }
        }

        /// The offset form as plain values; nil for the script form.
        var atOffset: AtOffset? {
            guard script == nil, let offset else { return nil }
            return AtOffset(databasePath: database.path, list: list, offset: offset, layout: layout.spec, json: json)
        }

        func run() async throws {
            if let atOffset { return try await atOffset.run() }
            guard let script else { throw CLIError("give --offset X or --script FILE") }
            let stores = try WaitingStoreDirectory(engine: await database.openEngine(access: .read), list: list)
            let read = try Simulate.readScript(at: script, layout: layout)
            // Only where the carousel stops matters: no timeline is kept.
            let simulation = try Simulate.simulate(
                read, stores: stores, trace: false, until: at, limits: limits.limits, source: script
            ) { _ in }
            try Self.printFocus(carousel: simulation.layout, offset: simulation.offset, json: json, storeAt: stores.store(at:))
        }

        /// `focus --offset X`, the form apps and scripts call at each swipe,
        /// as plain values: what it prints depends on these alone.
        struct AtOffset: Equatable {
            /// `--db`, or nil for the default catalog.
            var databasePath: String?
            var list: String
            var offset: Double
            var layout: LayoutSpec
            var json: Bool

            func run() async throws {
                let catalog = try await DatabaseOptions.openEngine(databasePath, access: .read)
                let carousel = try layout.layout(dataCount: try await catalog.count(list: list))
                // A scroll view without bounce never leaves its content.
                let offset = carousel.clampedOffset(offset)
                // The stores printed, read in one go before printing: the
                // focused one, and for the table the visible ones.
                var wanted = carousel.focusedDataIndex(at: offset).map { [$0] } ?? []
                if !json { wanted += carousel.visibleItems(at: offset).map(\.dataIndex) }
                var stores: [Int: Store] = [:]
                try await catalog.forEachStore(list: list, at: wanted) { position, store in stores[position] = store }
                try Focus.printFocus(carousel: carousel, offset: offset, json: json) { stores[$0]! }
            }
        }

        /// Prints the focused card at `offset` and the visible ones.
        static func printFocus(
            carousel: CarouselLayout, offset: Double, json: Bool, storeAt: (_ position: Int) throws -> Store
        ) throws {
            let index = carousel.focusedDataIndex(at: offset)
            let store = try index.map(storeAt)
            let visible = carousel.visibleItems(at: offset)
            print(
                json
                    ? Self.json(index: index, store: store, visible: visible)
                    : try Self.text(store: store, index: index, offset: offset, visible: visible, storeAt: storeAt))
        }

        /// `{"index","store","visible":[{"index","fraction","scale"}]}`, in that order.
        static func json(index: Int?, store: Store?, visible: VisibleItems) -> String {
            let cards = visible.map { item in
                #"{"index":\#(item.dataIndex),"fraction":\#(JSONNumber.exact(item.fraction)),"scale":\#(JSONNumber.exact(item.scale))}"#
            }
            let storeJSON = store.map(StoreOutput.jsonObject) ?? "null"
            return #"{"index":\#(JSONNumber.integer(index)),"store":\#(storeJSON),"visible":[\#(cards.joined(separator: ","))]}"#
        }

        /// The focused store in a line, then the visible cards as a table.
        static func text(
            store: Store?, index: Int?, offset: Double, visible: VisibleItems, storeAt: (_ position: Int) throws -> Store
        ) throws -> String {
            guard let store, let index else { return "No store: the list is empty." }
            var table = TextTable([
                .init(title: "#", alignment: .right), .init(title: "store"),
                .init(title: "fraction", alignment: .right), .init(title: "scale", alignment: .right),
            ])
            for item in visible {
                table.append([
                    String(item.dataIndex), try storeAt(item.dataIndex).name,
                    NumberFormatting.rounded(item.fraction), NumberFormatting.rounded(item.scale),
                ])
            }
            return """
                Focused at offset \(NumberFormatting.rounded(offset)): #\(index) \(store.name.terminalEscaped) (\(store.id.terminalEscaped)), \
                \(NumberFormatting.coordinate(store.latitude)), \(NumberFormatting.coordinate(store.longitude))

                \(table.render())
                """
        }
    }
}
