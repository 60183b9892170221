import Foundation
import TestSupport
import Testing

/// The libraries — the server among them, which other executables embed —
/// say what is missing in their own terms: no string of theirs names a
/// command of the `carousel` tool or one of its flags. The command line adds
/// those hints itself, and the documentation says which command does what.
@Suite struct LibraryWordingTests {
    /// Every module but the command line's.
    static let libraries = [
        "CarouselServer", "StoreCatalog", "CatalogServing", "PostgresCatalog", "Catalogs", "MapSync", "MapSyncCatalog",
        "MapSyncSimulation", "CarouselEngine", "Clustering", "OpeningHours", "Observables", "MapCamera", "Geo", "CarouselJSON",
        "TextInput", "WorkLanes", "Locks",
    ]
    static let commands = [
        "import", "export", "tokens", "serve", "lists", "near", "bbox", "focus", "simulate", "camera", "clusters", "search",
        "stores", "info", "demo", "snap",
    ]

    @Test func noLibraryStringNamesACommandOrAFlag() throws {
        let command = try NSRegularExpression(pattern: #""[^"\n]*(`?carousel (\#(Self.commands.joined(separator: "|")))\b|\s--[a-z])"#)
        var found: [String] = []
        for module in Self.libraries {
            let folder = Paths.packageRoot.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                for (number, line) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n").enumerated()
                where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                    let text = String(line)
                    if command.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil {
                        found.append("\(module)/\(file.lastPathComponent):\(number + 1): \(text.trimmingCharacters(in: .whitespaces))")
                    }
                }
            }
        }
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }
}
