import CarouselEngine
import MapSync
import MapSyncSimulation
import StoreCatalog

/// A timeline entry as one JSON object, as `simulate --json` prints each
/// line (keys in the documented order) and the server's session sends each
/// message.
package enum TimelineJSON {
    /// `{"t":0,"type":"camera","index":0,"storeId":"s1","latitude":37.5,"longitude":127.0,"zoom":16}` and kin.
    package static func line(_ entry: TimelineEntry) -> String {
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
        case .status(let status):
            field("index", String(status.index))
            quoted("text", status.text)
        case .autoplay(let autoplay):
            field("playing", String(autoplay.isPlaying))
            field("reasons", "[" + autoplay.reasons.map { #""\#($0.rawValue)""# }.joined(separator: ",") + "]")
        }
        return text + "}"
    }
}
