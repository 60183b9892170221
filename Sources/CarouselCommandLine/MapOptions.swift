import ArgumentParser
import CarouselJSON
import Foundation
import MapCamera

/// The MAP flags: the map the carousel covers and how the camera frames the
/// focused store on it. Shared by `camera` and `simulate` (where they are
/// laid over a script's `map` object, same names in camelCase). `--zoom`
/// stays with the layout flags, which `simulate` already takes.
struct MapOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("Map view width, in points (default 390).", valueName: "W"))
    var mapWidth: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Map view height, in points (default 844).", valueName: "H"))
    var mapHeight: Double?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Points covered by UI at the top, left, bottom and right (default 0,0,0,0).", valueName: "T,L,B,R"))
    var insets: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("256 (Google, Apple, Naver zooms) or 512 (Mapbox, MapLibre) (default 256).", valueName: "256|512"))
    var tileSize: Double?

    @Option(help: ArgumentHelp("center, inset, fit or keep (default center).", valueName: "mode"))
    var framing: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("fit: cards framed on each side of the focused one (default 1).", valueName: "n"))
    var neighbors: Int?

    @Option(parsing: .unconditional, help: "fit: room between the stores and the visible rect's edges, in points (default 32).")
    var fitPadding: Double?

    @Option(parsing: .unconditional, help: "keep: how far inside the visible rect the store may go before the camera moves, in points (default 48).")
    var keepMargin: Double?

    @Option(parsing: .unconditional, help: "Lowest camera zoom (default 0).")
    var minZoom: Double?

    @Option(parsing: .unconditional, help: "Highest camera zoom (default 20).")
    var maxZoom: Double?

    @Option(parsing: .unconditional, help: "A flight longer than this, in ms, jumps instead (default 2000).")
    var maxDurationMs: Double?

    /// Whether any MAP flag was given.
    var isEmpty: Bool {
        mapWidth == nil && mapHeight == nil && insets == nil && tileSize == nil && framing == nil
            && neighbors == nil && fitPadding == nil && keepMargin == nil && minZoom == nil
            && maxZoom == nil && maxDurationMs == nil
    }

    /// `base` with every MAP flag given here laid over it.
    func applied(to base: MapFraming) throws -> MapFraming {
        var map = base
        map.mapWidth = mapWidth ?? base.mapWidth
        map.mapHeight = mapHeight ?? base.mapHeight
        if let insets { map.insets = try Self.parseInsets(insets) }
        if let tileSize {
            guard let size = TileSize.allCases.first(where: { Double($0.rawValue) == tileSize }) else {
                throw CLIError("--tile-size must be 256 or 512 (got \(NumberFormatting.rounded(tileSize)))")
            }
            map.tileSize = size
        }
        if let framing {
            guard let mode = FramingMode(rawValue: framing) else {
                throw CLIError("--framing must be one of \(FramingMode.allCases.map(\.rawValue).joined(separator: ", ")) (got '\(framing)')")
            }
            map.mode = mode
        }
        map.neighbors = neighbors ?? base.neighbors
        map.fitPadding = fitPadding ?? base.fitPadding
        map.keepMargin = keepMargin ?? base.keepMargin
        map.minZoom = minZoom ?? base.minZoom
        map.maxZoom = maxZoom ?? base.maxZoom
        map.maxDurationMs = maxDurationMs ?? base.maxDurationMs
        return map
    }

    /// `T,L,B,R`: four numbers of points.
    static func parseInsets(_ text: String) throws -> MapInsets {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let top = parts[0], let left = parts[1], let bottom = parts[2], let right = parts[3] else {
            throw CLIError("--insets must be four numbers T,L,B,R (top, left, bottom, right points), e.g. 0,0,240,0 (got '\(text)')")
        }
        return MapInsets(top: top, left: left, bottom: bottom, right: right)
    }

    /// `framing` validated, its errors named as the flags that set them.
    static func validated(_ framing: MapFraming) throws -> MapFraming {
        do {
            try framing.validate()
        } catch {
            throw CLIError(error.description(naming: flag(error.parameter)))
        }
        return framing
    }

    /// `mapWidth` → `--map-width`, `insets.bottom` → `--insets (bottom)`.
    static func flag(_ parameter: String) -> String {
        let parts = parameter.split(separator: ".", maxSplits: 1)
        var flag = "--"
        for character in parts[0] {
            if character.isUppercase { flag += "-" + character.lowercased() } else { flag.append(character) }
        }
        return parts.count > 1 ? "\(flag) (\(parts[1]))" : flag
    }
}
