import ArgumentParser
import CarouselEngine
import CarouselJSON

extension Carousel {
    /// `carousel snap`: where a release comes to rest.
    struct Snap: ParsableCommand {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "snap",
            abstract: "Where a carousel release comes to rest.",
            discussion: """
                A drag began at rest on item --start-index and released at --offset with \
                --velocity (points per ms, positive toward later items). Prints the projected \
                rest p = x + v·d/(1 − d), the snapped target offset, the item resting there, \
                and the motion: decelerate toward it, or animate when it lies against the fling.
                """
        )

        @Option(parsing: .unconditional, help: "Number of items (with --loop, the data items; copies are added).")
        var count: Int

        @Option(parsing: .unconditional, help: ArgumentHelp("Content offset at release, in points.", valueName: "X"))
        var offset: Double

        @Option(
            parsing: .unconditional,
            help: ArgumentHelp(
                "Velocity at release, in points per ms, positive as the offset grows (toward later items; earlier ones with --rtl).", valueName: "V"))
        var velocity: Double

        @Option(parsing: .unconditional, help: ArgumentHelp("Item the drag began at rest on (default: the focused item at --offset).", valueName: "I"))
        var startIndex: Int?

        @OptionGroup(title: "Layout")
        var layout: LayoutOptions

        @Flag(help: "Print one JSON object.")
        var json = false

        func validate() throws {
            guard count >= 0 else { throw CLIError("--count cannot be negative (got \(count))") }
            guard offset.isFinite else { throw CLIError("--offset must be a finite number (got \(offset))") }
            guard velocity.isFinite else { throw CLIError("--velocity must be a finite number (got \(velocity))") }
            if let startIndex {
                let items = try layout.layout(dataCount: count).itemCount
                guard (0..<items).contains(startIndex) else {
                    throw CLIError(
                        items == 0
                            ? "--start-index \(startIndex): the carousel is empty"
                            : "--start-index must be an item in 0...\(items - 1) (got \(startIndex))")
                }
            }
        }

        func run() throws {
            let layout = try layout.layout(dataCount: count)
            // The drag began at rest on the start item: its rest is the drag's start offset.
            let start = startIndex ?? layout.focusedItem(at: offset)
            let release = try layout.release(
                at: offset, velocity: velocity, dragStart: start.map(layout.rest) ?? offset)
            print(json ? Self.json(release) : Self.text(release, layout: layout))
        }

        /// `{"projected","targetOffset","index","item","motion"}`, in that
        /// order, numbers exact. `index` is the data item the carousel rests
        /// on (the store, for a store list); `item` the laid-out item, which
        /// in a looping carousel counts the copies before the first.
        static func json(_ release: Release) -> String {
            let index = JSONNumber.integer(release.dataIndex), item = JSONNumber.integer(release.index)
            return
                #"{"projected":\#(JSONNumber.exact(release.projected)),"targetOffset":\#(JSONNumber.exact(release.targetOffset)),"index":\#(index),"item":\#(item),"motion":"\#(release.motion.rawValue)"}"#
        }

        /// A short labelled block for people.
        static func text(_ release: Release, layout: CarouselLayout) -> String {
            var item = release.dataIndex.map(String.init) ?? "none (empty carousel)"
            if layout.loop != nil, let laidOut = release.index { item += " (item \(laidOut) with the loop's copies)" }
            return [
                ("projected", NumberFormatting.rounded(release.projected)),
                ("target offset", NumberFormatting.rounded(release.targetOffset)),
                ("index", item),
                ("motion", release.motion.rawValue),
            ]
            .map { label, value in label + String(repeating: " ", count: 15 - label.count) + value }
            .joined(separator: "\n")
        }
    }
}
