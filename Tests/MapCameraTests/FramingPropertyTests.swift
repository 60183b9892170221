import Foundation
import MapCamera
import TestSupport
import Testing

/// Seeded random maps, stores and cameras; every failure names its seed and
/// trial so it reproduces.
@Suite("Camera framing properties")
struct FramingPropertyTests {
    static let trials = 2_000

    /// A random valid map: any view size, insets leaving a visible rect,
    /// either tile size, a zoom range and zoom inside it.
    static func randomFraming(_ random: inout SplitMix64, mode: FramingMode) -> MapFraming {
        let width = Double.random(in: 200...1200, using: &random)
        let height = Double.random(in: 200...1200, using: &random)
        let insets = MapInsets(
            top: Double.random(in: 0...(height * 0.3), using: &random),
            left: Double.random(in: 0...(width * 0.3), using: &random),
            bottom: Double.random(in: 0...(height * 0.3), using: &random),
            right: Double.random(in: 0...(width * 0.3), using: &random))
        let minZoom = Double.random(in: 0...3, using: &random)
        let maxZoom = Double.random(in: 15...22, using: &random)
        return MapFraming(
            mapWidth: width, mapHeight: height, insets: insets,
            tileSize: Bool.random(using: &random) ? .t256 : .t512, mode: mode,
            fitPadding: Double.random(in: 0...30, using: &random),
            keepMargin: Double.random(in: 0...30, using: &random),
            minZoom: minZoom, maxZoom: maxZoom, zoom: Double.random(in: minZoom...maxZoom, using: &random))
    }

    static func randomCoordinate(_ random: inout SplitMix64) -> Coordinate {
        at(Double.random(in: -80...80, using: &random), Double.random(in: -180..<180, using: &random))
    }

    @Test func insetPutsTheStoreAtTheVisibleRectsCentre() throws {
        let seed: UInt64 = 0x1_25E7
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            let framing = Self.randomFraming(&random, mode: .inset)
            try framing.validate()
            let store = Self.randomCoordinate(&random)
            let camera = try #require(framing.frame(store))
            let screen = framing.screenPoint(of: store, under: camera.viewpoint)
            let context = "seed \(seed) trial \(trial): \(framing) \(store) → \(screen)"
            #expect(close(screen.x, framing.visibleRect.midX, 1e-6), "\(context)")
            #expect(close(screen.y, framing.visibleRect.midY, 1e-6), "\(context)")
        }
    }

    @Test func fitShowsEveryFittedStoreInsideThePaddedVisibleRect() throws {
        let seed: UInt64 = 0xF17
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            let framing = Self.randomFraming(&random, mode: .fit)
            try framing.validate()
            // A store and up to 4 neighbours within a random spread, some across the antimeridian.
            let spread = [0.001, 0.05, 1, 10].randomElement(using: &random)!
            let center = Self.randomCoordinate(&random)
            let stores = (0..<Int.random(in: 1...5, using: &random)).map { _ in
                at(
                    min(max(center.latitude + Double.random(in: -spread...spread, using: &random), -84), 84),
                    WebMercator.wrappedLongitude(center.longitude + Double.random(in: -spread...spread, using: &random)))
            }
            let camera = try #require(framing.frame(stores[0], fitting: Array(stores.dropFirst())))
            // At minZoom a bounds too wide for the view cannot fit: nothing to check.
            guard camera.zoom > framing.minZoom else { continue }
            let room = framing.visibleRect.insetBy(framing.fitPadding)
            for store in stores {
                let screen = framing.screenPoint(of: store, under: camera.viewpoint)
                let context = "seed \(seed) trial \(trial): \(store) at \(screen), room \(room), zoom \(camera.zoom)"
                #expect(screen.x >= room.minX - 1e-6 && screen.x <= room.maxX + 1e-6, "\(context)")
                #expect(screen.y >= room.minY - 1e-6 && screen.y <= room.maxY + 1e-6, "\(context)")
            }
        }
    }

    @Test func keepNeverMovesWhileTheStoreIsInsideTheSafeRect() throws {
        let seed: UInt64 = 0x6EE9
        var random = SplitMix64(seed: seed)
        var stayed = 0, moved = 0
        for trial in 0..<Self.trials {
            let framing = Self.randomFraming(&random, mode: .keep)
            try framing.validate()
            let current = MapViewpoint(
                center: Self.randomCoordinate(&random),
                zoom: Double.random(in: framing.minZoom...framing.maxZoom, using: &random))
            // A store somewhere on (or a little off) the view.
            let store = coordinate(
                Double.random(in: -0.6...0.6, using: &random) * framing.mapWidth,
                Double.random(in: -0.6...0.6, using: &random) * framing.mapHeight,
                from: current.center, atZoom: current.zoom, tileSize: framing.tileSize)
            let screen = framing.screenPoint(of: store, under: current)
            let camera = framing.frame(store, from: current)
            let context = "seed \(seed) trial \(trial): \(store) at \(screen), safe \(framing.safeRect)"
            if framing.safeRect.contains(screen) {
                #expect(camera == nil, "\(context)")
                stayed += 1
            } else {
                let camera = try #require(camera, "\(context)")
                #expect(camera.zoom == current.zoom, "\(context)")
                moved += 1
            }
        }
        #expect(stayed > 100 && moved > 100, "both cases drawn: \(stayed) stayed, \(moved) moved")
    }

    @Test func aTransitionsDurationGrowsWithDistance() throws {
        let seed: UInt64 = 0xD15
        var random = SplitMix64(seed: seed)
        for trial in 0..<Self.trials {
            var framing = Self.randomFraming(&random, mode: .inset)
            framing.maxDurationMs = 1e12
            let from = MapViewpoint(center: Self.randomCoordinate(&random), zoom: framing.zoom)
            let z1 = Double.random(in: framing.minZoom...framing.maxZoom, using: &random)
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            // Less than half the world apart, so the short way round stays this way.
            let reach = min(50_000, 0.4 * WebMercator(tileSize: framing.tileSize).worldSize(atZoom: from.zoom))
            let far = Double.random(in: 1...reach, using: &random)
            let near = far * Double.random(in: 0.01...0.99, using: &random)
            func target(_ distance: Double) -> MapViewpoint {
                MapViewpoint(
                    center: coordinate(distance * cos(angle), distance * sin(angle) * 0.01, from: from.center, atZoom: from.zoom, tileSize: framing.tileSize),
                    zoom: z1)
            }
            let shorter = framing.transition(from: from, to: target(near))
            let longer = framing.transition(from: from, to: target(far))
            let context = "seed \(seed) trial \(trial): \(near) → \(shorter), \(far) → \(longer)"
            #expect(shorter.kind == .fly && longer.kind == .fly, "\(context)")
            #expect(longer.durationMs >= shorter.durationMs - 1e-9, "\(context)")
        }
    }
}
