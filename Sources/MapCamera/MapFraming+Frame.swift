import Foundation
import Geo

extension MapFraming {
    /// The camera that frames `store` in this framing's ``mode``, or nil
    /// when `keep` needs no move.
    ///
    /// - Parameters:
    ///   - store: the focused store.
    ///   - neighbors: `fit` only: the other stores to keep in view (the
    ///     neighbouring cards' stores, see ``fitIndices(around:count:wrapping:)``).
    ///   - current: `keep` only: where the camera is now; nil at load, when
    ///     there is no camera yet (then `keep` frames as `inset` at ``zoom``).
    ///   - atLeastZoom: a zoom the camera must reach at least — a clustering
    ///     index's "uncluster zoom", from which the store is its own marker,
    ///     so the focused store is never hidden inside a cluster. Clamped to
    ///     [minZoom, maxZoom]; nil or not finite: no floor. In `keep` a
    ///     camera below it moves even if the store is in view.
    public func frame(
        _ store: Coordinate, fitting neighbors: [Coordinate] = [],
        from current: MapViewpoint? = nil, atLeastZoom: Double? = nil
    ) -> FramedCamera? {
        guard var framed = framedViewpoint(store, fitting: neighbors, from: current, atLeastZoom: atLeastZoom) else {
            return nil
        }
        framed.span = span(at: framed.viewpoint)
        return framed
    }

    /// ``frame(_:fitting:from:atLeastZoom:)`` before its span is set.
    private func framedViewpoint(
        _ store: Coordinate, fitting neighbors: [Coordinate],
        from current: MapViewpoint?, atLeastZoom: Double?
    ) -> FramedCamera? {
        let floor = atLeastZoom.flatMap { $0.isFinite ? clampedZoom($0) : nil }
        func raised(_ zoom: Double) -> Double { clampedZoom(max(zoom, floor ?? zoom)) }
        switch mode {
        case .center:
            return FramedCamera(
                viewpoint: MapViewpoint(center: store, zoom: raised(zoom)), target: store, padding: .zero)
        case .inset:
            return inset(store, atZoom: raised(zoom))
        case .fit:
            let fitted = fit(store, neighbors)
            if let floor, floor > fitted.zoom {
                // Zooming further than the fit may push neighbours out; the
                // focused store is what must show, so frame it alone.
                return inset(store, atZoom: floor)
            }
            return fitted
        case .keep:
            guard let current else { return inset(store, atZoom: raised(zoom)) }
            let zoom = clampedZoom(current.zoom)
            let visibleEnough = floor.map { zoom >= $0 } ?? true
            if visibleEnough, safeRect.contains(screenPoint(of: store, under: MapViewpoint(center: current.center, zoom: zoom))) {
                return nil
            }
            return inset(store, atZoom: raised(zoom))
        }
    }

    /// The data indices `fit` frames around `index` in a list of `count`:
    /// `index − neighbors … index + neighbors`, clipped to the list, or
    /// wrapping round it in a looping carousel (each index once).
    public func fitIndices(around index: Int, count: Int, wrapping: Bool) -> [Int] {
        guard count > 0 else { return [] }
        let reach = min(neighbors, count)
        var indices: [Int] = []
        for offset in -reach...reach {
            let raw = index + offset
            if wrapping {
                let wrapped = ((raw % count) + count) % count
                if !indices.contains(wrapped) { indices.append(wrapped) }
            } else if (0..<count).contains(raw) {
                indices.append(raw)
            }
        }
        return indices
    }

    /// `zoom` limited to [minZoom, maxZoom].
    func clampedZoom(_ zoom: Double) -> Double {
        min(max(zoom, minZoom), maxZoom)
    }

    /// `inset`: the store at the centre of the visible rect. The view's
    /// centre is the store's world point plus ((right − left)/2, (bottom − top)/2).
    private func inset(_ store: Coordinate, atZoom zoom: Double) -> FramedCamera {
        let point = mercator.point(store, atZoom: zoom)
        return FramedCamera(
            viewpoint: MapViewpoint(center: centerShifted(from: point, atZoom: zoom), zoom: zoom),
            target: store, padding: insets)
    }

    /// The coordinate at the view's centre when world point `target` sits at
    /// the visible rect's centre.
    private func centerShifted(from target: MapPoint, atZoom zoom: Double) -> Coordinate {
        mercator.coordinate(
            at: MapPoint(
                x: target.x + (insets.right - insets.left) / 2,
                y: target.y + (insets.bottom - insets.top) / 2),
            atZoom: zoom)
    }

    /// `fit`: the bounds of `store` and `neighbors` in view with
    /// ``fitPadding`` to spare.
    ///
    /// With Δx, Δy the bounds' extent as fractions of the world (Δx the
    /// shorter way round the antimeridian) and p the padding,
    /// zoom = clamp(log2(min((visibleWidth − 2p)/(Δx·T), (visibleHeight − 2p)/(Δy·T))))
    /// — the zoom Mapbox's `cameraForCoordinateBounds(…, padding)` and
    /// Google's `newLatLngBounds(bounds, padding)` choose, not rounded to
    /// whole levels. An axis of extent 0 sets no limit; with both 0 the
    /// zoom is ``zoom``.
    private func fit(_ store: Coordinate, _ neighbors: [Coordinate]) -> FramedCamera {
        let mercator = mercator
        let units = ([store] + neighbors).map(mercator.unitPoint)
        let (west, width) = Self.shortestSpan(units.map(\.x))
        let north = units.map(\.y).min()!, south = units.map(\.y).max()!
        let height = south - north

        let visible = visibleRect
        var scale = Double.infinity
        if width > 0 { scale = min(scale, (visible.width - 2 * fitPadding) / (width * mercator.tileSize)) }
        if height > 0 { scale = min(scale, (visible.height - 2 * fitPadding) / (height * mercator.tileSize)) }
        let zoom = clampedZoom(scale.isFinite ? log2(scale) : self.zoom)

        let size = mercator.worldSize(atZoom: zoom)
        let center = MapPoint(x: (west + width / 2) * size, y: (north + height / 2) * size)
        return FramedCamera(
            viewpoint: MapViewpoint(center: centerShifted(from: center, atZoom: zoom), zoom: zoom),
            target: mercator.coordinate(at: center, atZoom: zoom), padding: insets)
    }

    /// The shortest arc of the unit circle [0, 1) holding every `x`: its
    /// western end and its length. The arc is the circle less the widest
    /// gap between neighbouring points, so bounds straddling the
    /// antimeridian go the short way round.
    static func shortestSpan(_ xs: [Double]) -> (west: Double, width: Double) {
        let sorted = xs.sorted()
        // The gap that wraps from the easternmost point round to the westernmost.
        var widest = sorted[0] + 1 - sorted[sorted.count - 1]
        var west = sorted[0]
        for i in sorted.indices.dropLast() where sorted[i + 1] - sorted[i] > widest {
            widest = sorted[i + 1] - sorted[i]
            west = sorted[i + 1]
        }
        return (west, 1 - widest)
    }
}
