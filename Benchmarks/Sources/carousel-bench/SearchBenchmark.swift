import Foundation
import StoreCatalog
import SyntheticStores

/// The search benchmark: `Catalog.search` on the imported places, in
/// process, each query timed alone after a warm-up — a text of 3 to 6
/// characters, a 2-character text, and a city box with an opening-time
/// filter; and what the first search of a list costs (it reads the list
/// into the search snapshot).
///
/// The places have no opening hours, so the box-and-hours query runs on a
/// second list: the same places with seeded `opening_hours` (five common
/// shapes, spans past midnight among them) and a `timezone` of their
/// longitude's hour (`Etc/GMT±N`).
struct SearchBenchmark {
    var workspace: Workspace
    var queries: Int
    var seed: UInt64 = 0x5EA_4C4

    static let hours = [
        "Mo-Fr 08:00-20:00", "Mo-Su 07:00-23:00", "Mo-Sa 10:00-22:00; Su off", "24/7", "Mo-Fr 22:00-02:00; Dec 25 off",
    ]

    func run(into report: inout Report) throws {
        let catalogURL = try workspace.catalog()
        let list = workspace.listName
        try importHoursList(into: catalogURL)
        let catalog = try Catalog(path: catalogURL.path)
        // The later benchmarks share this catalog: the server's compares
        // its nearest search with PostGIS over the places alone, so the
        // second copy of them goes when this one is done.
        defer { _ = try? catalog.deleteList(list + "-hours") }
        let count = try catalog.count(list: list)
        var random = SplitMix64(seed: seed)

        progress("search: the first search of the list (builds its snapshot)")
        let firstStart = DispatchTime.now().uptimeNanoseconds
        _ = try catalog.search(StoreSearch(list: list, text: "zzzz"))
        let firstMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - firstStart) / 1e6
        report.rows.append(ReportRow(
            "search: first search of a list (reads it into memory)", ours: Format.milliseconds(firstMilliseconds),
            peer: "—", ratio: "—"))

        // Query texts cut from real names, as a user types part of one.
        func texts(length: ClosedRange<Int>) throws -> [String] {
            try (0..<queries).map { _ in
                var name: [Character] = []
                while name.count < length.upperBound {
                    name = Array(try catalog.store(list: list, at: Int.random(in: 0..<count, using: &random)).name)
                }
                let size = Int.random(in: length, using: &random)
                let start = Int.random(in: 0...(name.count - size), using: &random)
                return String(name[start..<start + size])
            }
        }
        var found = 0
        progress("search: text of 3 to 6 characters")
        let long = try Stopwatch.microsecondsPerCall(try texts(length: 3...6)) { text in
            found += try catalog.search(StoreSearch(list: list, text: text)).hits.count
        }
        report.rows.append(ReportRow(
            "search: text of 3–6 characters, median (p99)", ours: Self.summary(long),
            target: .atMost(2_000, "2 ms"), measured: long.median))
        progress("search: text of 2 characters")
        let short = try Stopwatch.microsecondsPerCall(try texts(length: 2...2)) { text in
            try catalog.search(StoreSearch(list: list, text: text))
        }
        report.rows.append(ReportRow(
            "search: text of 2 characters, median (p99)", ours: Self.summary(short),
            target: .atMost(10_000, "10 ms"), measured: short.median))

        progress("search: city box, open at an instant")
        let hoursList = list + "-hours"
        _ = try catalog.search(StoreSearch(list: hoursList, text: "zzzz"))  // its snapshot, outside the timing
        let instant = Date(timeIntervalSince1970: 1_795_500_000)  // 2026-11-23T06:40:00Z, a Monday
        var open = 0
        let boxes = try (0..<queries).map { _ in
            let place = try catalog.location(list: list, at: Int.random(in: 0..<count, using: &random))
            return try BoundingBox(
                south: max(place.latitude - 0.1, -90), west: max(place.longitude - 0.1, -180),
                north: min(place.latitude + 0.1, 90), east: min(place.longitude + 0.1, 180))
        }
        let box = try Stopwatch.microsecondsPerCall(boxes) { box in
            open += try catalog.search(StoreSearch(list: hoursList, area: .box(box), openAt: instant)).hits.count
        }
        report.rows.append(ReportRow(
            "search: city box (0.2°) open at an instant, median (p99)", ours: Self.summary(box),
            target: .atMost(2_000, "2 ms"), measured: box.median))
        report.notes.append("""
            search: in process through `Catalog.search` on the \(Format.count(count))-store list, each query timed \
            alone after a warm-up; \(queries) texts of 3–6 and \(queries) of 2 characters cut from random names \
            (\(found / max(queries, 1)) stores found on average by the longer ones, a page of at most 20 read), \
            \(queries) boxes of 0.2° around random places on the same places with seeded opening hours and zones, \
            open at 2026-11-23T06:40Z (\(open / max(queries, 1)) open stores each on average); seed \(String(seed, radix: 16))
            """)
    }

    /// The places again as `<list>-hours`, each with `opening_hours` and a
    /// `timezone`, imported by our CLI into the same catalog.
    private func importHoursList(into catalog: URL) throws {
        progress("search: importing the places with opening hours")
        let file = workspace.path("places-hours.csv")
        guard let reader = FileHandle(forReadingAtPath: workspace.dataFile.path) else {
            throw BenchError("cannot read \(workspace.dataFile.path)")
        }
        let text = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline).map(String.init)
        guard !lines.isEmpty else { throw BenchError("\(workspace.dataFile.path) is empty") }
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        guard let longitude = header.firstIndex(of: "longitude") else { throw BenchError("no longitude column") }
        var random = SplitMix64(seed: seed)
        var output = header.joined(separator: ",") + ",opening_hours,timezone\n"
        for line in lines {
            // The longitude is never quoted; a quoted name may hold commas,
            // so count fields from the right.
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let value = Double(fields[fields.count - (header.count - longitude)]) ?? 0
            let offset = Int((value / 15).rounded())
            let zone = offset == 0 ? "Etc/GMT" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"  // POSIX signs are reversed
            output += line + ",\"\(Self.hours[Int.random(in: 0..<Self.hours.count, using: &random)])\",\(zone)\n"
        }
        try output.write(to: file, atomically: true, encoding: .utf8)
        _ = try MeasuredProcess(
            executable: workspace.carousel,
            arguments: ["import", file.path, "--list", workspace.listName + "-hours", "--replace", "--db", catalog.path],
            stderrPath: workspace.path("search-import.stderr").path
        ).run()
    }

    static func summary(_ samples: Samples) -> String {
        "\(Format.microseconds(samples.median)) (p99 \(Format.microseconds(samples.p99)))"
    }
}
