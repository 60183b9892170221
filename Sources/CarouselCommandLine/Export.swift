import ArgumentParser
import CatalogServing
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel export NAME --format F [--output FILE]`: a list as a file
    /// that `carousel import` reads back to the same list.
    struct Export: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "export",
            abstract: "Write a store list as csv, tsv, json, jsonl or geojson.",
            discussion: """
                The file imports back to the same list: ids, names, coordinates (shortest exact \
                decimals), address, category, phone, every attribute, in carousel order. csv and tsv \
                have a column per attribute (empty where a store has none); json and jsonl put \
                attributes beside the named fields, numbers as numbers; geojson writes Point features \
                with the store id as the Feature id. Streams: memory stays flat at any list size. \
                With --output the file appears only once complete; without it, standard output.
                """
        )

        @OptionGroup var database: DatabaseOptions

        @Argument(help: "The list to export.")
        var name: String

        @Option(
            help: ArgumentHelp(
                "The format (default: from --output's extension).",
                valueName: ImportFormat.allCases.map(\.rawValue).joined(separator: "|")))
        var format: String?

        @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
        var output: String?

        func validate() throws {
            _ = try exportFormat()
        }

        private func exportFormat() throws -> ImportFormat {
            let names = ImportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            if let format {
                guard let known = ImportFormat(rawValue: format.lowercased()) else {
                    throw ValidationError("unknown --format '\(format)'; use one of \(names)")
                }
                return known
            }
            guard let output, let inferred = ImportFormat(path: output) else {
                throw ValidationError("give --format \(names) (or an --output file with one of those extensions)")
            }
            return inferred
        }

        func run() async throws {
            let format = try exportFormat()
            let catalog = try await database.openEngine(access: .read)
            _ = try await catalog.count(list: name)  // no such list: fail before creating a file
            guard let output else {
                try await StoreExporter(format: format, output: .shared).export(list: name, from: catalog)
                return
            }
            try await OutputPath.write(output) { file in
                try await StoreExporter(format: format, output: file).export(list: name, from: catalog)
            }
        }
    }
}
