import MapCamera
import MapSync
import StoreCatalog

/// A camera as the CLI prints it (in `simulate`, `demo` and `camera`) and
/// the server sends it (in `/simulate` and the live session).
///
/// A framed camera (one with an animation) prints every key:
/// `"index", "storeId", "latitude", "longitude", "zoom", "target":
/// {"latitude", "longitude"}, "padding": {"top", "left", "bottom", "right"},
/// "animation": {"kind", "durationMs"}, "span": {"latitudeDelta",
/// "longitudeDelta"}` — `latitude`/`longitude` are the view's centre, `span`
/// the degrees the whole map view covers (MapKit's `MKCoordinateSpan`). Without a map framing only the first five, as before.
/// Numbers are exact (``JSONNumber``); the table's words are rounded.
package enum CameraJSON {
    /// The camera's keys, appended after whatever `text` already holds
    /// (each with its leading comma).
    package static func appendFields(of camera: CameraPosition, to text: inout String) {
        func field(_ key: String, _ value: String) { text += #","\#(key)":\#(value)"# }
        field("index", String(camera.index))
        text += #","storeId":"#
        AttributesJSON.appendQuoted(camera.storeId, to: &text)
        field("latitude", JSONNumber.exact(camera.latitude))
        field("longitude", JSONNumber.exact(camera.longitude))
        field("zoom", JSONNumber.exact(camera.zoom))
        guard let animation = camera.animation else { return }
        field("target", #"{"latitude":\#(JSONNumber.exact(camera.target.latitude)),"longitude":\#(JSONNumber.exact(camera.target.longitude))}"#)
        let padding = camera.padding
        field(
            "padding",
            #"{"top":\#(JSONNumber.exact(padding.top)),"left":\#(JSONNumber.exact(padding.left)),"bottom":\#(JSONNumber.exact(padding.bottom)),"right":\#(JSONNumber.exact(padding.right))}"#
        )
        field("animation", #"{"kind":"\#(animation.kind.rawValue)","durationMs":\#(JSONNumber.exact(animation.durationMs))}"#)
        if let span = camera.span {
            field("span", #"{"latitudeDelta":\#(JSONNumber.exact(span.latitudeDelta)),"longitudeDelta":\#(JSONNumber.exact(span.longitudeDelta))}"#)
        }
    }

    /// One JSON object: `{"index", "storeId", …, "animation"}`.
    package static func object(_ camera: CameraPosition) -> String {
        var text = ""
        appendFields(of: camera, to: &text)
        return "{" + text.dropFirst() + "}"
    }

    /// The camera in words for a table: centre, zoom and animation.
    package static func words(_ camera: CameraPosition) -> String {
        let format = camera.animation == nil ? NumberFormatting.coordinate : NumberFormatting.computedCoordinate
        var words = "camera to \(format(camera.latitude)), \(format(camera.longitude)), zoom \(NumberFormatting.rounded(camera.zoom))"
        guard let animation = camera.animation else { return words }
        switch animation.kind {
        case .none: words += ", no animation"
        case .fly: words += ", fly \(NumberFormatting.rounded(animation.durationMs)) ms"
        case .jump: words += ", jump"
        }
        return words
    }
}
