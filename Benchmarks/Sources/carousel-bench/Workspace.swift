import Foundation

/// A scratch folder for one run's databases and logs, removed at the end;
/// and the catalog database the query and focus benchmarks share.
final class Workspace {
    let directory: URL
    /// The carousel executable under test.
    let carousel: String
    /// The store file every benchmark uses.
    let dataFile: URL
    /// The list name the catalog is imported under.
    let listName = "places"
    /// A database holding `dataFile` imported by our CLI, once one exists.
    private var importedCatalog: URL?

    init(carousel: String, dataFile: URL) throws {
        self.carousel = carousel
        self.dataFile = dataFile
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("carousel-bench-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A path in the scratch folder.
    func path(_ name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// Removes a SQLite database with its journal files.
    func removeDatabase(_ database: URL) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: database.path + suffix)
        }
    }

    /// Our CLI importing `dataFile` into `database` as a new list, measured.
    func importWithCarousel(into database: URL) throws -> ProcessMeasurement {
        try MeasuredProcess(
            executable: carousel,
            arguments: ["import", dataFile.path, "--list", listName, "--db", database.path],
            stderrPath: path("carousel-import.stderr").path,
            measuresPeakMemory: true
        ).run()
    }

    /// Keeps `database` (imported by ``importWithCarousel(into:)``) as the
    /// catalog the later benchmarks query.
    func adoptCatalog(_ database: URL) {
        importedCatalog = database
    }

    /// The imported catalog, importing it now if no benchmark did yet.
    func catalog() throws -> URL {
        if let importedCatalog { return importedCatalog }
        let database = path("catalog.sqlite")
        progress("importing \(dataFile.lastPathComponent) for the catalog benchmarks")
        _ = try importWithCarousel(into: database)
        importedCatalog = database
        return database
    }
}
