import Foundation
import TestSupport
import Testing

/// `carousel camera`, and the map framing in `simulate`, run as a user runs
/// them, over the sample stores. Store 0 is hc-001, Gangnam Station, at
/// 37.4979, 127.0276.
@Suite("carousel camera")
struct CameraCommandTests {
    let catalog: SampleCatalog
    var db: String { catalog.db }

    init() throws {
        catalog = try SampleCatalog()
    }

    private func camera(_ arguments: [String]) throws -> CarouselProcess.Result {
        try CarouselProcess.run(["camera", "--db", db, "--list", "coffee"] + arguments)
    }

    @Test func withoutMapFlagsTheCameraIsCentredOnTheStoreWithNoAnimation() throws {
        let result = try camera(["--index", "0", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                #"{"index":0,"storeId":"hc-001","latitude":37.4979,"longitude":127.0276,"zoom":16,"target":{"latitude":37.4979,"longitude":127.0276},"padding":{"top":0,"left":0,"bottom":0,"right":0},"animation":{"kind":"none","durationMs":0},"span":{"latitudeDelta":0.01436825143414211,"longitudeDelta":0.008368492126464844}}"#
            ])
    }

    @Test func insetMovesTheCentreHalfTheBottomInsetSouth() throws {
        // Zoom 16, 256-pt tiles: the store's world y is
        // (0.5 − ln((1 + sin φ)/(1 − sin φ))/(4π)) · 2^24 = 6,501,046.71; the
        // centre is 240/2 = 120 pt south, y 6,501,166.71, which converts back
        // to φ = 2·atan(exp(π(1 − 2y/2^24))) − 90° = 37.49585709270…°.
        let result = try camera(["--index", "0", "--framing", "inset", "--insets", "0,0,240,0", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.lines == [
                #"{"index":0,"storeId":"hc-001","latitude":37.495857092703666,"longitude":127.0276,"zoom":16,"target":{"latitude":37.4979,"longitude":127.0276},"padding":{"top":0,"left":0,"bottom":240,"right":0},"animation":{"kind":"none","durationMs":0},"span":{"latitudeDelta":0.014368644501871586,"longitudeDelta":0.008368492126464844}}"#
            ])
    }

    @Test func fromACameraOneLevelOutItIsAPureZoomFlight() throws {
        // z 15 → 16 at the same centre: S = ln 2 / 1.42, 1000 · S / 1.2 = 406.77651 ms.
        let result = try camera(["--index", "0", "--from", "37.4979,127.0276,15", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let animation = try #require(object["animation"] as? [String: Any])
        #expect(animation["kind"] as? String == "fly")
        let duration = try #require(animation["durationMs"] as? Double)
        #expect(abs(duration - 406.776_514_4) < 1e-6, "\(duration)")
    }

    @Test func fromTheOtherSideOfTheWorldItJumps() throws {
        // A negative latitude right after the flag: not mistaken for an option.
        let result = try camera(["--index", "0", "--from", "-33.8,151.2,15", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""animation":{"kind":"jump","durationMs":0}"#), "\(result.stdout)")
    }

    @Test func keepWithTheStoreInViewLeavesTheCameraWhereItIs() throws {
        let result = try camera(["--index", "0", "--framing", "keep", "--from", "37.4985,127.028,16"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("the store is in view, the camera stays at 37.4985, 127.028, zoom 16"), "\(result.stdout)")
        let moved = try camera(["--index", "0", "--framing", "keep", "--from", "37.51,127.028,16", "--json"])
        #expect(moved.stdout.contains(#""latitude":37.4979,"longitude":127.0276,"zoom":16"#), "\(moved.stdout)")
    }

    @Test(arguments: [
        (["--tile-size", "300"], "Error: --tile-size must be 256 or 512 (got 300)"),
        (["--zoom", "22"], "Error: --zoom must be a zoom in [minZoom 0, maxZoom 20] (got 22)"),
        (["--map-width", "0"], "Error: --map-width must be a finite number of points in (0, 100000] (got 0)"),
        (["--insets", "0,0,900,0"], "Error: --insets must be top + bottom < mapHeight 844 so the visible rect has a height (got top + bottom = 900)"),
        (["--insets", "0,0,-1,0"], "Error: --insets (bottom) must be a finite number of points ≥ 0 (got -1)"),
        (["--framing", "zoom"], "Error: --framing must be one of center, inset, fit, keep (got 'zoom')"),
        (["--fit-padding", "nan"], "Error: --fit-padding must be a finite number of points in [0, 195) (half the visible rect's shorter side) (got nan)"),
        (["--from", "37.5,127"], "Error: --from must be LAT,LNG,ZOOM, three numbers, e.g. 37.4979,127.0276,15 (got '37.5,127')"),
        (["--from", "37.5,127,21"], "Error: --from zoom must be a zoom in [minZoom 0, maxZoom 20] (got 21)"),
    ])
    func badMapInputIsOneLineNamingTheFlagAndItsRange(extra: [String], message: String) throws {
        let result = try camera(["--index", "0"] + extra)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == message + "\n")
    }

    @Test func anIndexOutOfTheListIsOneLine() throws {
        let result = try camera(["--index", "44"])
        #expect(result.status != 0)
        #expect(result.stderr == "Error: --index 44 is out of range: the list 'coffee' has 44 stores (0...43)\n")
    }

    @Test func simulateWithAMapObjectPrintsTheRicherCameraAndKeepsMarkersInView() throws {
        let path = Paths.sampleData.appendingPathComponent("scripts/keep-swipes.json").path
        let result = try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let types = try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["type"] as? String)
        }
        // Some swipes select a marker that is still in view: no camera with it.
        #expect(types.filter { $0 == "marker" }.count > types.filter { $0 == "camera" }.count, "\(result.stdout)")
        let first = try #require(result.lines.first)
        #expect(first.hasPrefix(#"{"t":0,"type":"camera","index":0,"storeId":"hc-001","#))
        #expect(
            first.hasSuffix(
                #""padding":{"top":0,"left":0,"bottom":240,"right":0},"animation":{"kind":"none","durationMs":0},"span":{"latitudeDelta":0.11497115829929783,"longitudeDelta":0.06694793701171875}}"#
            ))
        // MAP flags override the script's map: centre framing moves on every swipe.
        let centred = try CarouselProcess.run(["simulate", "--db", db, "--list", "coffee", "--script", path, "--json", "--framing", "center"])
        let cameras = centred.lines.filter { $0.contains(#""type":"camera""#) }
        let markers = centred.lines.filter { $0.contains(#""type":"marker""#) }
        #expect(cameras.count == markers.count, "\(centred.stdout)")
    }
}
