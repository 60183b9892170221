import Foundation

/// Where the benchmark's GeoNames places come from, said in every report.
///
/// The full 234,908 places sit beside a team checkout (`../shared/data`);
/// a lone clone has only the repository's test extract
/// (`Tests/Fixtures/GeoNames`: the 311 Korean places whole, and a
/// 30,000-place worldwide subset in place of the 234,908). Figures from the
/// subset are not comparable with BENCHMARKS.md's, so the report names it.
struct DataSource {
    var file: URL
    var description: String

    /// The beside-the-checkout folder and the committed one, relative to the
    /// package root (`scripts/benchmark` runs from there).
    static let besideCheckout = "../shared/data"
    static let committed = "Tests/Fixtures/GeoNames"

    /// `explicit` (from `--data`) is used as given; otherwise the folder
    /// beside the checkout when it holds `file`, else the committed copy
    /// (where the worldwide file is `geonames-world.csv`).
    static func locate(explicit: String?, file: String) throws -> DataSource {
        let manager = FileManager.default
        if let explicit {
            let url = URL(fileURLWithPath: explicit).appendingPathComponent(file)
            guard manager.isReadableFile(atPath: url.path) else {
                throw BenchError("\(url.path) is not readable: --data names the folder holding \(file)")
            }
            return DataSource(file: url, description: "\(url.path) (from --data)")
        }
        let beside = URL(fileURLWithPath: besideCheckout).appendingPathComponent(file)
        if manager.isReadableFile(atPath: beside.path) {
            return DataSource(file: beside, description: "\(beside.path) (beside the checkout)")
        }
        let committedName = file == "geonames-places.csv" ? "geonames-world.csv" : file
        let committed = URL(fileURLWithPath: committed).appendingPathComponent(committedName)
        guard manager.isReadableFile(atPath: committed.path) else {
            throw BenchError("neither \(beside.path) nor \(committed.path) is readable: pass --data")
        }
        let subset = committedName == file ? "" : ", a 30,000-place subset: figures not comparable with BENCHMARKS.md"
        return DataSource(file: committed, description: "\(committed.path) (committed copy\(subset))")
    }
}
