import CarouselEngine
import MapSync
import StoreCatalog

/// A timeline entry as one JSON object, as `simulate --json` prints each
/// line (keys in the documented order) and the server's session sends each
/// message.
package enum TimelineJSON {
    /// `{"t":0,"type":"camera","index":0,"storeId":"s1","latitude":37.5,"longitude":127.0,"zoom":16}` and kin.
    package static func line(_ entry: TimelineEntry) -> String {
        var text = #"{"t":\#(NumberFormatting.rounded(entry.time)),"type":"\#(entry.kind.name)""#
        func field(_ key: String, _ value: String) { text += #","\#(key)":\#(value)"# }
        func quoted(_ key: String, _ value: String) {
            text += #","\#(key)":"#
            AttributesJSON.appendQuoted(value, to: &text)
        }
        switch entry.kind {
        case .camera(let camera):
            field("index", String(camera.index))
            quoted("storeId", camera.storeId)
            field("latitude", NumberFormatting.coordinate(camera.latitude))
            field("longitude", NumberFormatting.coordinate(camera.longitude))
            field("zoom", NumberFormatting.rounded(camera.zoom))
        case .marker(let marker):
            field("index", String(marker.index))
            quoted("storeId", marker.storeId)
            field("previousIndex", NumberFormatting.integer(marker.previousIndex))
        case .frame(let frame):
            field("offset", NumberFormatting.rounded(frame.offset))
            field("focus", NumberFormatting.integer(frame.dataIndex))
            field("direction", #""\#(frame.direction.rawValue)""#)
        case let .release(release, velocity):
            field("velocity", NumberFormatting.rounded(velocity))
            field("projected", NumberFormatting.rounded(release.projected))
            field("targetOffset", NumberFormatting.rounded(release.targetOffset))
            field("index", NumberFormatting.integer(release.index))
            field("motion", #""\#(release.motion.rawValue)""#)
        case .jump(let jump):
            field("from", NumberFormatting.rounded(jump.from))
            field("to", NumberFormatting.rounded(jump.to))
        case .scroll(let scroll):
            field("index", String(scroll.dataIndex))
            field("targetOffset", NumberFormatting.rounded(scroll.targetOffset))
            field("animated", String(scroll.animated))
        }
        return text + "}"
    }
}
