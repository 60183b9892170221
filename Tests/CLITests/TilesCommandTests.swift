import Foundation
import TestSupport
import Testing

/// `carousel tiles` end to end: the tile file a map SDK reads, written whole,
/// and one-line errors for a tile outside its zoom.
@Suite("Tiles command")
struct TilesCommandTests {
    typealias Workspace = CatalogCommandTests.Workspace

    @Test func writesTheTileOfTheList() throws {
        let workspace = try ClustersCommandTests.imported()
        let output = workspace.directory.path("tile.mvt").path
        let result = try workspace.run(["tiles", "--list", "s", "--zoom", "5", "--x", "27", "--y", "12", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        let tile = VectorTileReader(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(tile.name == "stores" && tile.extent == 4096)
        // At zoom 5 the three Seoul stores are one cluster; Busan stands alone.
        let clusters = tile.features.indices.filter { tile.properties(of: $0)["cluster"] == .bool(true) }
        #expect(clusters.count == 1)
        #expect(clusters.first.map { tile.properties(of: $0)["point_count"] } == .int(3))
        let stores = tile.features.indices.filter { tile.properties(of: $0)["cluster"] == nil }
        #expect(stores.map { tile.properties(of: $0)["name"] } == [.string("Delta")])
        // With Alpha selected, it stands out of the cluster.
        let selected = try workspace.run(["tiles", "--list", "s", "--zoom", "5", "--x", "27", "--y", "12", "--selected", "0", "--output", output])
        #expect(selected.status == 0)
        let again = VectorTileReader(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(again.features.indices.contains { again.properties(of: $0)["name"] == .string("Alpha") })
        // No partial file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path("").path).filter { $0.contains("partial") }
        #expect(left.isEmpty)
    }

    @Test func aTileOutsideItsZoomOrAnUnknownListIsOneLine() throws {
        let workspace = try ClustersCommandTests.imported()
        let output = workspace.directory.path("tile.mvt").path
        for (arguments, words) in [
            (["--zoom", "23", "--x", "0", "--y", "0"], "--zoom must be in 0...22"),
            (["--zoom", "2", "--x", "4", "--y", "0"], "--x must be in 0...3"),
            (["--zoom", "2", "--x", "0", "--y", "-1"], "--y must be in 0...3"),
        ] {
            let result = try workspace.run(["tiles", "--list", "s", "--output", output] + arguments)
            CatalogCommandTests.expectUserError(result, mentioning: words)
        }
        let unknown = try workspace.run(["tiles", "--list", "nope", "--zoom", "0", "--x", "0", "--y", "0", "--output", output])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("nope"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
