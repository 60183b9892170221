import ArgumentParser
import CatalogServing
import Foundation
import StoreCatalog

extension Carousel {
    /// `carousel info`: which database is in use and what it holds.
    struct Info: AsyncParsableCommand, ParsableCommandWithCatalog {
        static let configuration = CommandConfiguration.subcommand(
            commandName: "info",
            abstract: "Show the database in use: path, schema version, size and lists.",
            discussion: "Opening the database creates it if missing and migrates an older one, as every command does."
        )

        @OptionGroup var database: DatabaseOptions

        @Flag(help: #"Print JSON: {"path", "schemaVersion", "latestSchemaVersion", "bytes", "stores", "lists": [{"name", "count"}]}."#)
        var json = false

        func run() async throws {
            let path = try database.resolvedPath()
            let info = try await DatabaseOptions.openEngine(path, access: .read).info()
            // A file's absolute path: the one to back up or delete; a
            // URL with its password masked.
            let absolute =
                DatabaseOptions.isPostgresURL(path) ? info.path : URL(fileURLWithPath: path).standardizedFileURL.path
            if json {
                let lists = info.lists.map { "{\"name\":\(StoreOutput.quoted($0.name)),\"count\":\($0.count)}" }
                print(
                    "{\"path\":\(StoreOutput.quoted(absolute)),\"schemaVersion\":\(info.schemaVersion),"
                        + "\"latestSchemaVersion\":\(info.latestSchemaVersion),\"bytes\":\(info.databaseBytes),"
                        + "\"stores\":\(info.storeCount),\"lists\":[\(lists.joined(separator: ","))]}")
                return
            }
            var lines = [
                "database  \(absolute)",
                "schema    version \(info.schemaVersion) (this carousel writes \(info.latestSchemaVersion))",
                "size      \(Self.size(info.databaseBytes))",
                "stores    \(info.storeCount) in \(info.lists.count) list\(info.lists.count == 1 ? "" : "s")",
            ].map(\.terminalEscaped)
            if !info.lists.isEmpty {
                var table = TextTable([.init(title: "list"), .init(title: "stores", alignment: .right)])
                for list in info.lists { table.append([list.name, String(list.count)]) }
                lines += ["", table.render()]
            }
            print(lines.joined(separator: "\n"))
        }

        /// `48.0 KiB`, `31.4 MiB`: binary units, one decimal.
        static func size(_ bytes: Int) -> String {
            let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
            var value = Double(bytes), unit = 0
            while value >= 1024, unit < units.count - 1 {
                value /= 1024
                unit += 1
            }
            return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f", value) + " " + units[unit]
        }
    }
}
