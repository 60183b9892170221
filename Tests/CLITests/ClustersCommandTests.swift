import Foundation
import TestSupport
import Testing

/// `carousel clusters` end to end on a small list: the JSON of each mode,
/// and one-line errors for what it refuses.
@Suite("Clusters command")
struct ClustersCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    /// Three stores within metres of each other in Seoul, one in Busan.
    static let csv = """
        id,name,latitude,longitude
        a,Alpha,37.5000,127.0000
        b,Bravo,37.5001,127.0001
        c,Charlie,37.5002,127.0000
        d,Delta,35.1000,129.0000

        """

    static func imported() throws -> Workspace {
        let workspace = try Workspace()
        let file = try workspace.write("stores.csv", csv)
        #expect(try workspace.run(["import", file, "--list", "s"]).status == 0)
        return workspace
    }

    static let korea = ["--south", "33", "--west", "124", "--north", "39", "--east", "131"]

    @Test func markersLeavesAndUnclusterZoomAsJSON() throws {
        let workspace = try Self.imported()
        let low = try workspace.run(["clusters", "--list", "s", "--zoom", "5"] + Self.korea + ["--json"])
        #expect(low.status == 0, "\(low.stderr)")
        let markers = try #require(try CatalogCommandTests.json(low.stdout) as? [[String: Any]])
        let cluster = try #require(markers.first { $0["type"] as? String == "cluster" })
        #expect(cluster["count"] as? Int == 3)
        #expect(Set(cluster.keys) == ["type", "id", "count", "latitude", "longitude", "expansionZoom"])
        let store = try #require(markers.first { $0["type"] as? String == "store" })
        #expect(
            store as NSDictionary == [
                "type": "store", "index": 3, "id": "d", "name": "Delta", "latitude": 35.1, "longitude": 129.0,
            ] as NSDictionary)

        let id = try #require(cluster["id"] as? Int)
        let leaves = try workspace.run(["clusters", "--list", "s", "--leaves", String(id), "--limit", "2", "--offset", "1", "--json"])
        let leafArray = try #require(try CatalogCommandTests.json(leaves.stdout) as? [[String: Any]])
        #expect(leafArray.count == 2)
        #expect(leafArray.allSatisfy { $0["type"] as? String == "store" && ["a", "b", "c"].contains($0["id"] as? String) })

        // Busan's store is alone from its uncluster zoom, in Seoul's cluster just below.
        let uncluster = try workspace.run(["clusters", "--list", "s", "--uncluster-zoom", "3", "--json"])
        let answer = try #require(try CatalogCommandTests.json(uncluster.stdout) as? [String: Int])
        #expect(Set(answer.keys) == ["index", "unclusterZoom"] && answer["index"] == 3)
        let zoom = try #require(answer["unclusterZoom"])
        func alone(atZoom zoom: Int) throws -> Bool {
            let result = try workspace.run(["clusters", "--list", "s", "--zoom", String(zoom)] + Self.korea + ["--json"])
            let markers = try #require(try CatalogCommandTests.json(result.stdout) as? [[String: Any]])
            return markers.contains { $0["type"] as? String == "store" && $0["index"] as? Int == 3 }
        }
        #expect(zoom > 0)
        #expect(try alone(atZoom: zoom) && !alone(atZoom: zoom - 1))

        // Selected, the store comes out of its cluster, which keeps the rest.
        let selected = try workspace.run(["clusters", "--list", "s", "--zoom", "5", "--selected", "1"] + Self.korea + ["--json"])
        let withSelection = try #require(try CatalogCommandTests.json(selected.stdout) as? [[String: Any]])
        #expect(withSelection.first { $0["type"] as? String == "cluster" }?["count"] as? Int == 2)
        #expect(withSelection.contains { $0["type"] as? String == "store" && $0["index"] as? Int == 1 })
    }

    @Test func cameraUnclusterZoomsAtLeastToTheStoresUnclusterZoom() throws {
        let workspace = try Self.imported()
        let uncluster = try workspace.run(["clusters", "--list", "s", "--uncluster-zoom", "1", "--json"])
        let zoom = try #require((try CatalogCommandTests.json(uncluster.stdout) as? [String: Int])?["unclusterZoom"])
        #expect(zoom > 2)
        let low = try workspace.run(["camera", "--list", "s", "--index", "1", "--zoom", "2", "--uncluster", "--json"])
        #expect(low.status == 0, "\(low.stderr)")
        #expect((try CatalogCommandTests.json(low.stdout) as? [String: Any])?["zoom"] as? Int == zoom)
        // Already beyond it: unchanged.
        let high = try workspace.run(["camera", "--list", "s", "--index", "1", "--zoom", "19.5", "--uncluster", "--json"])
        #expect((try CatalogCommandTests.json(high.stdout) as? [String: Any])?["zoom"] as? Double == 19.5)
    }

    @Test func humanOutputIsATable() throws {
        let workspace = try Self.imported()
        let result = try workspace.run(["clusters", "--list", "s", "--zoom", "18"] + Self.korea)
        #expect(result.lines.first == "type   index  id  count  name     latitude  longitude  expands at")
        #expect(result.lines.count == 6)
        let uncluster = try workspace.run(["clusters", "--list", "s", "--uncluster-zoom", "0"])
        #expect(uncluster.lines.count == 1 && uncluster.lines[0].hasPrefix("store 0 is in no cluster from zoom "))
    }

    @Test func badInputIsOneLineError() throws {
        let workspace = try Self.imported()
        let expect = CatalogCommandTests.expectUserError
        expect(try workspace.run(["clusters", "--list", "s", "--leaves", "999999"]), "no cluster with id 999999", #_sourceLocation)
        expect(try workspace.run(["clusters", "--list", "s", "--zoom", "nan"] + Self.korea), "--zoom", #_sourceLocation)
        expect(try workspace.run(["clusters", "--list", "s", "--zoom", "25"] + Self.korea), "--zoom must be a number in 0...24", #_sourceLocation)
        expect(
            try workspace.run([
                "clusters", "--list", "s", "--zoom", "3", "--south", "39", "--west", "124", "--north", "33", "--east", "131",
            ]), "south 39.0 is above north 33.0", #_sourceLocation)
        expect(try workspace.run(["clusters", "--list", "s", "--uncluster-zoom", "4"]), "no position 4", #_sourceLocation)
        expect(try workspace.run(["clusters", "--list", "nope", "--zoom", "3"] + Self.korea), "no list named 'nope'", #_sourceLocation)
        expect(try workspace.run(["clusters", "--list", "s"]), "give either --zoom", #_sourceLocation)
    }
}
