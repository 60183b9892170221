import Clustering
import StoreCatalog

/// Map markers as `carousel clusters --json` prints them and
/// `GET /lists/{name}/clusters` answers: a JSON array of
/// `{"type":"cluster","id","count","latitude","longitude","expansionZoom"}`
/// and `{"type":"store","index","id","name","latitude","longitude"}`, one
/// marker per line, numbers exact.
package enum ClusterJSON {
    package static func array(_ markers: [ListMarker]) -> String {
        guard !markers.isEmpty else { return "[]" }
        var text = "[\n"
        for (i, marker) in markers.enumerated() {
            switch marker {
            case let .cluster(cluster):
                text += "{\"type\":\"cluster\",\"id\":\(cluster.id),\"count\":\(cluster.count)"
                text += ",\"latitude\":\(JSONNumber.exact(cluster.latitude))"
                text += ",\"longitude\":\(JSONNumber.exact(cluster.longitude))"
                text += ",\"expansionZoom\":\(JSONNumber.integer(cluster.expansionZoom))}"
            case let .store(index, store):
                text += "{\"type\":\"store\",\"index\":\(index),\"id\":\(StoreJSON.quoted(store.id))"
                text += ",\"name\":\(StoreJSON.quoted(store.name))"
                text += ",\"latitude\":\(JSONNumber.exact(store.latitude))"
                text += ",\"longitude\":\(JSONNumber.exact(store.longitude))}"
            }
            text += i == markers.count - 1 ? "\n" : ",\n"
        }
        return text + "]"
    }
}
