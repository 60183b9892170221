import CarouselEngine
import CarouselJSON
import CatalogServing
import MapSync
import MapSyncSimulation
import StoreCatalog

/// A simulation's timeline as `simulate` and `demo` print it: JSON Lines
/// with exact numbers (keys in the documented order), or a table a person
/// can follow, rounded, with each store's name.
struct TimelineOutput {
    let timeline: [TimelineEntry]
    /// The store name at a list position; looked up only for printed rows.
    let name: (Int) throws -> String

    /// One JSON object per line.
    func jsonLines() -> String {
        timeline.map(Self.json).joined(separator: "\n")
    }

    /// One entry as a JSON object: the same line the server sends.
    static func json(_ entry: TimelineEntry) -> String {
        TimelineJSON.line(entry)
    }

    /// The table: t, event, store position, store name, details.
    func table() throws -> String {
        var table = TextTable([
            .init(title: "t (ms)", alignment: .right), .init(title: "event"),
            .init(title: "#", alignment: .right), .init(title: "store"), .init(title: "details"),
        ])
        for entry in timeline {
            let (index, details) = Self.details(entry.kind)
            table.append([
                NumberFormatting.rounded(entry.time), entry.kind.name,
                index.map(String.init) ?? "", try index.map(name) ?? "", details,
            ])
        }
        return table.render()
    }

    /// The store a row is about, if any, and the rest in words.
    private static func details(_ kind: TimelineEntry.Kind) -> (index: Int?, details: String) {
        switch kind {
        case .camera(let camera):
            return (camera.index, CameraJSON.words(camera))
        case .marker(let marker):
            return (marker.index, marker.previousIndex.map { "marker selected (was #\($0))" } ?? "marker selected")
        case .frame(let frame):
            let moving = frame.direction == .none ? "" : ", \(frame.direction.rawValue)"
            return (frame.dataIndex, "offset \(NumberFormatting.rounded(frame.offset))\(moving)\(frame.isSettled ? ", settled" : "")")
        case let .release(release, velocity):
            return (
                release.dataIndex,
                "release at \(NumberFormatting.rounded(velocity)) pt/ms: projected \(NumberFormatting.rounded(release.projected)), "
                    + "rests at \(NumberFormatting.rounded(release.targetOffset)) (\(release.motion.rawValue))"
            )
        case .jump(let jump):
            return (nil, "loop jump \(NumberFormatting.rounded(jump.from)) → \(NumberFormatting.rounded(jump.to)) (setContentOffset, silent)")
        case .scroll(let scroll):
            return (scroll.dataIndex, "carousel scrolls to \(NumberFormatting.rounded(scroll.targetOffset))\(scroll.animated ? ", animated" : "")")
        case .status(let status):
            return (status.index, "says \"\(status.text)\"")
        case .autoplay(let autoplay):
            let reasons = autoplay.reasons.map(\.rawValue).joined(separator: ", ")
            return (nil, autoplay.isPlaying ? "autoplay plays" : "autoplay paused: \(reasons)")
        }
    }
}
