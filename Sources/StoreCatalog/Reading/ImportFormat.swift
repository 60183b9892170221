import Foundation

/// The input formats of an import.
public enum ImportFormat: String, CaseIterable, Sendable, Codable {
    case csv, tsv, json, jsonl, geojson

    /// The format a file name implies: `.csv`, `.tsv`/`.tab`, `.json`,
    /// `.jsonl`/`.ndjson`, `.geojson`; nil for anything else.
    public init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "csv": self = .csv
        case "tsv", "tab": self = .tsv
        case "json": self = .json
        case "jsonl", "ndjson": self = .jsonl
        case "geojson": self = .geojson
        default: return nil
        }
    }
}
