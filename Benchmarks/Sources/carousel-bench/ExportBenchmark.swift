import Foundation

/// `carousel export` of the whole imported list as JSON: the listing path
/// (`stores`, `export`) streams, so its peak memory must not grow with the
/// list. Peak RSS by GNU time, as for the import; no peer.
struct ExportBenchmark {
    var workspace: Workspace
    var runs: Int

    func run(into report: inout Report) throws {
        let database = try workspace.catalog()
        let output = workspace.path("export.json")
        var measured: [ProcessMeasurement] = []
        for run in 1...runs {
            progress("export: run \(run)/\(runs)")
            measured.append(try MeasuredProcess(
                executable: workspace.carousel,
                arguments: ["export", workspace.listName, "--format", "json", "--output", output.path, "--db", database.path],
                stderrPath: workspace.path("carousel-export.stderr").path,
                measuresPeakMemory: true
            ).run())
        }
        // The file is the whole list: one line per store between "[" and "]".
        let data = try Data(contentsOf: output)
        let stores = data.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } - 2
        try? FileManager.default.removeItem(at: output)
        let rss = Int(Samples(measured.map { Double($0.peakRSSBytes ?? 0) }).median)
        let wall = Samples(measured.map(\.wallSeconds)).median
        report.rows.append(ReportRow(
            "export \(Format.count(stores)) stores as JSON: peak RSS", ours: Format.mebibytes(rss),
            target: .atMost(64, "64 MiB"), measured: Double(rss) / 1_048_576
        ))
        report.rows.append(ReportRow(
            "export \(Format.count(stores)) stores as JSON: wall", ours: Format.seconds(wall), peer: "—", ratio: "—"))
        report.notes.append("""
            export: `carousel export \(workspace.listName) --format json --output FILE --db CATALOG` of the \
            imported list (\(Format.mebibytes(data.count)) of JSON), peak RSS by GNU time; medians of \(runs) runs
            """)
    }
}
