import CarouselJSON
import CatalogServing
import Clustering
import StoreCatalog

/// Cluster markers as `carousel clusters` prints them: the JSON array the
/// server answers too (``ClusterJSON``), or a table.
struct ClusterOutput {
    var markers: [ListMarker]

    init(_ markers: [ListMarker]) {
        self.markers = markers
    }

    func render(json: Bool) -> String {
        json ? self.json() : table()
    }

    func json() -> String {
        ClusterJSON.array(markers)
    }

    /// One row per marker: a cluster's id, count and expansion zoom, or a
    /// store's list position, id and name.
    func table() -> String {
        guard !markers.isEmpty else { return "No markers." }
        var table = TextTable([
            TextTable.Column(title: "type"), TextTable.Column(title: "index", alignment: .right),
            TextTable.Column(title: "id"), TextTable.Column(title: "count", alignment: .right),
            TextTable.Column(title: "name"),
            TextTable.Column(title: "latitude", alignment: .right),
            TextTable.Column(title: "longitude", alignment: .right),
            TextTable.Column(title: "expands at", alignment: .right),
        ])
        for marker in markers {
            switch marker {
            case let .cluster(cluster):
                table.append([
                    "cluster", "", String(cluster.id), String(cluster.count), "",
                    format6(cluster.latitude), format6(cluster.longitude),
                    cluster.expansionZoom.map(String.init) ?? "",
                ])
            case let .store(index, store):
                table.append([
                    "store", String(index), store.id, "1", store.name,
                    String(store.latitude), String(store.longitude), "",
                ])
            }
        }
        return table.render()
    }

    /// A cluster's computed position, to a micro-degree (about 0.1 m) in the
    /// table; JSON keeps every digit.
    private func format6(_ value: Double) -> String {
        String((value * 1e6).rounded() / 1e6)
    }
}
