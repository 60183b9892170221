import Foundation
import StoreCatalog
import TestSupport

/// The committed GeoNames extracts as stores, through a tiny test-only CSV
/// split (the import engineer's readers are tested on their own): fields
/// split on commas, a field in double quotes may hold commas (the extracts
/// have no embedded quotes or newlines).
enum GeoNames {
    /// `geonames-kr.csv`: 311 Korean places (id,name,name_ko,latitude,longitude,population).
    static func korea() throws -> [Store] { try read("geonames-kr.csv") }

    /// `geonames-world.csv`: 30,000 places worldwide, the far north and south,
    /// both sides of the antimeridian and dense cities among them
    /// (id,name,latitude,longitude,country,population).
    static func places() throws -> [Store] { try read("geonames-world.csv") }

    /// A seeded random sample of `count` places, in file order.
    static func placesSample(count: Int, seed: UInt64) throws -> [Store] {
        var random = SplitMix64(seed: seed)
        let all = try places()
        var picked = Set<Int>()
        while picked.count < count { picked.insert(Int.random(in: 0..<all.count, using: &random)) }
        return picked.sorted().map { all[$0] }
    }

    private static func read(_ name: String) throws -> [Store] {
        let text = try String(contentsOf: Paths.geoNames.appendingPathComponent(name), encoding: .utf8)
        // By Unicode scalar: a combining mark after a comma would otherwise
        // fuse with it into one Character.
        var lines = text.unicodeScalars.split(separator: "\n").map(fields)
        let header = lines.removeFirst()
        let column = { (name: String) in header.firstIndex(of: name)! }
        let (id, title, latitude, longitude) = (column("id"), column("name"), column("latitude"), column("longitude"))
        // As the import types a column: numbers when every value of the
        // column is a whole number (the extracts' only typed column is
        // `population`), text otherwise; an empty cell is no value.
        let wholeNumbers = header.indices.map { index in
            lines.allSatisfy { $0[index].isEmpty || (AttributeValue.Number($0[index])?.isInteger ?? false) }
        }
        return lines.map { fields in
            var attributes: [String: AttributeValue] = [:]
            for (index, field) in fields.enumerated() where ![id, title, latitude, longitude].contains(index) && !field.isEmpty {
                attributes[header[index]] = wholeNumbers[index] ? .number(AttributeValue.Number(field)!) : .string(field)
            }
            return Store(
                id: fields[id], name: fields[title],
                latitude: Double(fields[latitude])!, longitude: Double(fields[longitude])!,
                attributes: attributes)
        }
    }

    private static func fields(_ line: Substring.UnicodeScalarView) -> [String] {
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var quoted = false
        for scalar in line {
            switch scalar {
            case "\"": quoted.toggle()
            case "," where !quoted:
                fields.append(String(field))
                field = String.UnicodeScalarView()
            default: field.append(scalar)
            }
        }
        fields.append(String(field))
        return fields
    }
}
