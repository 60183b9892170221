import MapCamera
import Testing

/// Every bad parameter is one line that names it and its allowed range.
@Suite("Framing validation")
struct ValidationTests {
    private func message(_ framing: MapFraming) -> String? {
        do {
            try framing.validate()
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theDefaultsAreValid() throws {
        try MapFraming().validate()
        for mode in FramingMode.allCases {
            try MapFraming(insets: MapInsets(top: 60, bottom: 240), tileSize: .t512, mode: mode).validate()
        }
    }

    @Test func aViewOrVisibleRectWithoutSizeIsRefused() {
        #expect(message(MapFraming(mapWidth: 0)) == "mapWidth must be a finite number of points in (0, 100000] (got 0)")
        #expect(message(MapFraming(mapHeight: -5)) == "mapHeight must be a finite number of points in (0, 100000] (got -5)")
        #expect(
            message(MapFraming(insets: MapInsets(left: 200, right: 190)))
                == "insets must be left + right < mapWidth 390 so the visible rect has a width (got left + right = 390)")
        #expect(
            message(MapFraming(insets: MapInsets(top: 500, bottom: 400)))
                == "insets must be top + bottom < mapHeight 844 so the visible rect has a height (got top + bottom = 900)")
        #expect(message(MapFraming(insets: MapInsets(bottom: -1))) == "insets.bottom must be a finite number of points ≥ 0 (got -1)")
    }

    @Test func zoomsOutsideTheirRangeAreRefused() {
        #expect(message(MapFraming(zoom: 21)) == "zoom must be a zoom in [minZoom 0, maxZoom 20] (got 21)")
        #expect(message(MapFraming(minZoom: 17)) == "zoom must be a zoom in [minZoom 17, maxZoom 20] (got 16)")
        #expect(message(MapFraming(maxZoom: 25)) == "maxZoom must be a zoom in [minZoom 0, 24] (got 25)")
        #expect(message(MapFraming(minZoom: -1)) == "minZoom must be a zoom in [0, 24] (got -1)")
        #expect(throws: MapFramingError.self) { try MapFraming().checkZoom(20.5, named: "--from zoom") }
    }

    @Test func notANumberAndInfinityAreRefused() {
        #expect(
            message(MapFraming(fitPadding: .nan)) == "fitPadding must be a finite number of points in [0, 195) (half the visible rect's shorter side) (got nan)"
        )
        #expect(message(MapFraming(maxDurationMs: .infinity)) == "maxDurationMs must be a finite number of ms ≥ 0 (got inf)")
        #expect(message(MapFraming(zoom: .nan)) == "zoom must be a zoom in [minZoom 0, maxZoom 20] (got nan)")
    }

    @Test func paddingsAndMarginsMustLeaveRoom() {
        #expect(
            message(MapFraming(insets: MapInsets(bottom: 744), keepMargin: 50))
                == "keepMargin must be a finite number of points in [0, 50) (half the visible rect's shorter side) (got 50)")
        #expect(message(MapFraming(neighbors: -1)) == "neighbors must be a whole number in [0, 1000] (got -1)")
    }

    @Test func theMessageCanNameTheParameterTheUsersWay() {
        let error = MapFramingError(parameter: "mapWidth", requirement: "a finite number of points in (0, 100000]", value: "0")
        #expect(error.description(naming: "--map-width") == "--map-width must be a finite number of points in (0, 100000] (got 0)")
    }
}
