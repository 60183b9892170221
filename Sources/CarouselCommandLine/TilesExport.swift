import ArgumentParser
import Clustering
import Foundation
import StoreCatalog
import VectorTiles

/// `--properties a,b`: the attributes each store of a tile carries.
struct TilePropertiesOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "What each store carries besides id, name and category: address, phone or attribute names (comma-separated, at most 16).", valueName: "names"))
    var properties: String?

    /// The names; a one-line reason for a list a tile cannot carry.
    func names() throws -> [String] {
        guard let properties else { return [] }
        let names = properties.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let problem = VectorTile.problem(withProperties: names) { throw ValidationError("--properties: \(problem)") }
        return names
    }
}

extension Carousel.Tiles {
    /// `carousel tiles export --list L [--max-zoom 14] --output F.mbtiles|F.pmtiles`.
    struct Export: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Write every tile of a list's markers into an MBTiles or PMTiles file.",
            discussion: """
                The archive holds each tile that has a marker, from --min-zoom to --max-zoom, as \
                `carousel tiles` writes it (gzipped, as both formats store vector tiles). The \
                output's extension picks the format: .mbtiles (MBTiles 1.3, an SQLite file that \
                Martin, tileserver-gl and GDAL read) or .pmtiles (PMTiles v3, one file for static \
                hosting behind a CDN). The file is written beside the output and renamed into place \
                once complete: an interrupted export leaves no file under the output name. A \
                progress line shows on a terminal.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The store list.") var list: String
        @Option(name: .customLong("min-zoom"), parsing: .unconditional, help: "The first zoom written, 0...22.") var minZoom = 0
        @Option(name: .customLong("max-zoom"), parsing: .unconditional, help: "The last zoom written, 0...22.") var maxZoom = 14
        @OptionGroup(title: "Which stores the tiles cluster") var filters: StoreFilterOptions
        @OptionGroup var properties: TilePropertiesOption
        @Option(name: [.short, .long], help: ArgumentHelp("The archive to write: a .mbtiles or .pmtiles file.", valueName: "file"))
        var output: String

        enum Format { case mbtiles, pmtiles }

        var format: Format? {
            switch (output as NSString).pathExtension.lowercased() {
            case "mbtiles": .mbtiles
            case "pmtiles": .pmtiles
            default: nil
            }
        }

        func validate() throws {
            for (flag, zoom) in [("--min-zoom", minZoom), ("--max-zoom", maxZoom)] where !One.zooms.contains(zoom) {
                throw ValidationError("\(flag) must be in 0...22 (got \(zoom))")
            }
            guard minZoom <= maxZoom else { throw ValidationError("--min-zoom (\(minZoom)) is above --max-zoom (\(maxZoom))") }
            guard format != nil else {
                throw ValidationError("--output must end in .mbtiles or .pmtiles, which picks the format (got '\(output)')")
            }
            _ = try filters.filter()
            _ = try properties.names()
        }

        func run() async throws {
            let catalog = try await database.openEngine(access: .read)
            let filter = try filters.filter(), names = try properties.names()
            let progress = ProgressLine()
            let started = ContinuousClock.now
            let last = try await OutputPath.writeArchive(output) { path in
                switch format! {
                case .mbtiles:
                    var writer = try MBTilesWriter(path: path)
                    return try await export(catalog, filter, names, &writer, progress)
                case .pmtiles:
                    var writer = try PMTilesWriter(path: path)
                    return try await export(catalog, filter, names, &writer, progress)
                }
            }
            progress.finish()
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            StandardOutput.shared.line(
                "wrote \(last.written) tiles (zooms \(minZoom)–\(maxZoom), \(Carousel.Info.size(last.bytes)) of tiles) to \(output) in \(String(format: "%.1f", seconds)) s"
            )
        }

        private func export(
            _ catalog: some CatalogEngine, _ filter: StoreFilter, _ names: [String], _ writer: inout some TileArchiveWriter,
            _ progress: ProgressLine
        ) async throws -> TileExport.Progress {
            try await TileExport.write(
                list: list, from: catalog, zooms: minZoom...maxZoom, filter: filter, properties: names, to: &writer
            ) { state in
                progress.show(
                    "zoom \(state.zoom)/\(maxZoom): \(state.visited) of \(state.candidates) tiles · \(state.written) written · \(Carousel.Info.size(state.bytes))",
                    fraction: state.candidates == 0 ? 1 : Double(state.visited) / Double(state.candidates))
            }
        }
    }
}

/// A progress line on standard error, redrawn in place (`\r`), only when
/// standard error is a terminal: a log or a pipe gets nothing.
final class ProgressLine: Sendable {
    let isTerminal = isatty(STDERR_FILENO) == 1
    /// The bar's width in cells.
    static let width = 24

    func show(_ text: String, fraction: Double) {
        guard isTerminal else { return }
        let filled = Int((min(max(fraction, 0), 1) * Double(Self.width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: Self.width - filled)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(bar) \(text)".utf8))
    }

    func finish() {
        guard isTerminal else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
