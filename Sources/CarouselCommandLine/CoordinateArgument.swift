import ArgumentParser
import CatalogServing
import StoreCatalog

/// `LAT,LNG` as people type it: `--from 37.5665,126.978`,
/// `--from -33.8688,151.2093` (Sydney), `--from "40.7, -74.0"`.
///
/// Negative numbers: ArgumentParser takes a value that starts with `-` for
/// the next option unless the option parses `.unconditional`ly. Every
/// numeric option of the CLI (and this one) is declared so:
///
/// ```swift
/// @Option(parsing: .unconditional, transform: CoordinateArgument.parse) var from: Coordinate?
/// @Option(parsing: .unconditional) var lat: Double
/// ```
///
/// so `--lat -33.86`, `--west -74.1` and `--limit -3` reach the command,
/// which checks the range and says what is wrong with the value itself.
enum CoordinateArgument {
    /// The point `text` names; a one-line reason when it is not LAT,LNG
    /// with latitude in -90...90 and longitude in -180...180.
    static func parse(_ text: String) throws -> Coordinate {
        guard let point = Coordinate(parsing: text) else {
            throw ValidationError(
                "'\(text)' is not LAT,LNG with latitude in -90...90 and longitude in -180...180 "
                    + "(e.g. 37.5665,126.978 or -33.8688,151.2093)")
        }
        return point
    }
}
