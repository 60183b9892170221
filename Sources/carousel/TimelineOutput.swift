import CarouselEngine
import MapSync
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

    /// `{"t":0,"type":"camera","index":0,"storeId":"s1","latitude":37.5,"longitude":127.0,"zoom":16}` and kin.
    static func json(_ entry: TimelineEntry) -> String {
        var text = #"{"t":\#(JSONNumber.exact(entry.time)),"type":"\#(entry.kind.name)""#
        func field(_ key: String, _ value: String) { text += #","\#(key)":\#(value)"# }
        func quoted(_ key: String, _ value: String) {
            text += #","\#(key)":"#
            AttributesJSON.appendQuoted(value, to: &text)
        }
        switch entry.kind {
        case .camera(let camera):
            CameraJSON.appendFields(of: camera, to: &text)
        case .marker(let marker):
            field("index", String(marker.index))
            quoted("storeId", marker.storeId)
            field("previousIndex", JSONNumber.integer(marker.previousIndex))
        case .frame(let frame):
            field("offset", JSONNumber.exact(frame.offset))
            field("focus", JSONNumber.integer(frame.dataIndex))
            field("direction", #""\#(frame.direction.rawValue)""#)
        case let .release(release, velocity):
            field("velocity", JSONNumber.exact(velocity))
            field("projected", JSONNumber.exact(release.projected))
            field("targetOffset", JSONNumber.exact(release.targetOffset))
            // The store rested on; `item` counts a looping carousel's copies too.
            field("index", JSONNumber.integer(release.dataIndex))
            field("item", JSONNumber.integer(release.index))
            field("motion", #""\#(release.motion.rawValue)""#)
        case .jump(let jump):
            field("from", JSONNumber.exact(jump.from))
            field("to", JSONNumber.exact(jump.to))
        case .scroll(let scroll):
            field("index", String(scroll.dataIndex))
            field("targetOffset", JSONNumber.exact(scroll.targetOffset))
            field("animated", String(scroll.animated))
        }
        return text + "}"
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
            return (release.dataIndex, "release at \(NumberFormatting.rounded(velocity)) pt/ms: projected \(NumberFormatting.rounded(release.projected)), "
                + "rests at \(NumberFormatting.rounded(release.targetOffset)) (\(release.motion.rawValue))")
        case .jump(let jump):
            return (nil, "loop jump \(NumberFormatting.rounded(jump.from)) → \(NumberFormatting.rounded(jump.to)) (setContentOffset, silent)")
        case .scroll(let scroll):
            return (scroll.dataIndex, "carousel scrolls to \(NumberFormatting.rounded(scroll.targetOffset))\(scroll.animated ? ", animated" : "")")
        }
    }
}
