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

    @Test func filtersAndPropertiesShapeTheTile() throws {
        let workspace = try ClustersCommandTests.imported()
        let output = workspace.directory.path("tile.mvt").path
        // --text keeps Delta alone: no cluster of the three Seoul stores.
        let delta = try workspace.run(["tiles", "--list", "s", "--zoom", "5", "--x", "27", "--y", "12", "--text", "delt", "--output", output])
        #expect(delta.status == 0, "\(delta.stderr)")
        let tile = VectorTileReader(Array(try Data(contentsOf: URL(fileURLWithPath: output))))
        #expect(tile.features.indices.map { tile.properties(of: $0)["name"] } == [.string("Delta")])
        // No store of that category: an empty tile.
        let result = try workspace.run([
            "tiles", "--list", "s", "--zoom", "5", "--x", "27", "--y", "12", "--category", "nothing-like-this", "--output", output,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).isEmpty)
        let bad = try workspace.run(["tiles", "--list", "s", "--zoom", "0", "--x", "0", "--y", "0", "--properties", "id", "--output", output])
        CatalogCommandTests.expectUserError(bad, mentioning: "--properties: 'id' is a field every tile has")
        let filter = try workspace.run(["tiles", "--list", "s", "--zoom", "0", "--x", "0", "--y", "0", "--where", "novalue", "--output", output])
        CatalogCommandTests.expectUserError(filter, mentioning: "--where takes KEY=VALUE")
    }

    @Test(arguments: ["mbtiles", "pmtiles"])
    func exportWritesTheArchiveWholeOrNothing(format: String) throws {
        let workspace = try ClustersCommandTests.imported()
        let output = workspace.directory.path("stores.\(format)").path
        let result = try workspace.run(["tiles", "export", "--list", "s", "--max-zoom", "6", "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        // One summary line; no progress when standard error is not a terminal.
        #expect(result.stdout.hasPrefix("wrote ") && result.stdout.contains("tiles (zooms 0–6") && result.stdout.contains(output))
        #expect(result.stderr.isEmpty)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output))
        let magic = format == "mbtiles" ? Array("SQLite format 3".utf8) : Array("PMTiles".utf8) + [3]
        #expect(Array(bytes.prefix(magic.count)) == magic)
        // Bad input is one line and leaves nothing: no archive, no partial file.
        let missing = workspace.directory.path("missing.\(format)").path
        for (arguments, words) in [
            (["--list", "nope"], "nope"), (["--list", "s", "--max-zoom", "23"], "--max-zoom must be in 0...22"),
            (["--list", "s", "--min-zoom", "5", "--max-zoom", "4"], "--min-zoom (5) is above --max-zoom (4)"),
        ] {
            let failed = try workspace.run(["tiles", "export", "--output", missing] + arguments)
            CatalogCommandTests.expectUserError(failed, mentioning: words)
        }
        let wrong = try workspace.run(["tiles", "export", "--list", "s", "--output", workspace.directory.path("stores.zip").path])
        CatalogCommandTests.expectUserError(wrong, mentioning: "--output must end in .mbtiles or .pmtiles")
        let left = try FileManager.default.contentsOfDirectory(atPath: workspace.directory.path("").path)
        #expect(!left.contains { $0.contains("partial") || $0.hasPrefix("missing") }, "\(left)")
        // A second export replaces the first whole.
        let again = try workspace.run(["tiles", "export", "--list", "s", "--max-zoom", "3", "--output", output])
        #expect(again.status == 0 && again.stdout.contains("zooms 0–3"))
    }
}
