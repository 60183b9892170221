import Foundation
import MapCamera
import Testing

/// The van Wijk–Nuij flight as MapLibre's `flyTo` times it (ρ 1.42, V 1.2),
/// on a 390 × 844 map: w0 = max(390, 844) = 844.
@Suite("Camera transitions")
struct TransitionTests {
    let framing = MapFraming()
    let origin = MapViewpoint(center: at(0, 0), zoom: 16)

    @Test func theFirstCameraAndTheSameCameraDoNotAnimate() {
        #expect(framing.transition(from: nil, to: origin) == .none)
        #expect(framing.transition(from: origin, to: origin) == .none)
    }

    @Test func aPureZoomTakesTheLogOfTheWidthRatio() {
        // z 16 → 17: w1 = 844 / 2 = 422, S = |ln(422/844)| / 1.42 = 0.693147 / 1.42
        // = 0.488131; 1000 · S / 1.2 = 406.7765 ms.
        let zoomIn = framing.transition(from: origin, to: MapViewpoint(center: at(0, 0), zoom: 17))
        #expect(zoomIn.kind == .fly)
        #expect(close(zoomIn.durationMs, 406.776_514, 1e-5))
        // Out is as long as in.
        let zoomOut = framing.transition(from: origin, to: MapViewpoint(center: at(0, 0), zoom: 15))
        #expect(close(zoomOut.durationMs, zoomIn.durationMs, 1e-9))
    }

    @Test func aShortPanFlies() {
        // 100 pt east at zoom 16, same zoom: w1 = w0 = 844, so
        // b0 = ρ²·u1/(2·w0) = 2.0164 · 100 / 1688 = 0.119455 and b1 = −b0;
        // r_i = ln(√(b_i² + 1) − b_i) gives S = 2·asinh(0.119455)/1.42
        // = 2 · 0.119173 / 1.42 = 0.167849; 1000 · S / 1.2 = 139.874 ms.
        let next = MapViewpoint(center: coordinate(100, 0, from: at(0, 0), atZoom: 16), zoom: 16)
        let pan = framing.transition(from: origin, to: next)
        #expect(pan.kind == .fly)
        #expect(close(pan.durationMs, 139.874_051, 1e-5))
    }

    @Test func aPanLongerThanMaxDurationJumps() {
        // 5000 pt: b0 = 2.0164 · 5000 / 1688 = 5.97275, S = 2·asinh(5.97275)/1.42
        // = 2 · 2.487666 / 1.42 = 3.503755 → 2919.35 ms > 2000: a jump of 0 ms.
        let far = MapViewpoint(center: coordinate(5000, 0, from: at(0, 0), atZoom: 16), zoom: 16)
        #expect(framing.transition(from: origin, to: far) == CameraTransition(kind: .jump, durationMs: 0))
        var patient = framing
        patient.maxDurationMs = 3000
        let flight = patient.transition(from: origin, to: far)
        #expect(flight.kind == .fly && close(flight.durationMs, 2919.354_293, 1e-5))
    }

    @Test func aPanAcrossTheAntimeridianGoesTheShortWay() {
        let west = MapViewpoint(center: at(0, 179.99), zoom: 10)
        let east = MapViewpoint(center: at(0, -179.99), zoom: 10)
        let across = framing.transition(from: west, to: east)
        let alongside = framing.transition(from: MapViewpoint(center: at(0, 10), zoom: 10), to: MapViewpoint(center: at(0, 10.02), zoom: 10))
        #expect(across.kind == .fly)
        #expect(close(across.durationMs, alongside.durationMs, 1e-6))
    }
}
