import CarouselServer
import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Locks
import Logging
import NIOCore
import Testing

/// What a session's client received, each line with the client's clock when it came.
final class Received: Sendable {
    private let lines = StateLock<[(at: ContinuousClock.Instant, text: String)]>([])

    func append(_ text: String) {
        lines.withLock { $0.append((ContinuousClock.now, text)) }
    }

    var all: [(at: ContinuousClock.Instant, line: [String: Any])] {
        lines.withLock { $0 }.map { entry in
            let object = (try? JSONSerialization.jsonObject(with: Data(entry.text.utf8))) as? [String: Any]
            return (entry.at, object ?? ["unparsed": entry.text])
        }
    }

    func of(_ type: String) -> [(at: ContinuousClock.Instant, line: [String: Any])] {
        all.filter { $0.line["type"] as? String == type }
    }

    /// Waits (bounded: 10 s, which a loaded 2-core machine never comes
    /// near) until `count` lines of `type` arrived.
    func wait(for type: String, count: Int = 1, timeout: Duration = .seconds(10)) async throws {
        let deadline = ContinuousClock.now + timeout
        while of(type).count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }
}

/// The live session over a real WebSocket: the view model on the wall
/// clock, proving the wiring. Real time on a machine that may be loaded,
/// so the timing checks are lower bounds only — a camera never comes
/// before the debounce (250 ms) after the last frame — and the waits are
/// generous; when exactly it comes is `LiveSessionClockTests`' to check,
/// on a test clock.
@Suite(.serialized) struct SessionTests {
    static let layout = #"{"layout":{"viewport":390,"itemLength":300,"spacing":12,"behavior":"groupPagingCentered","debounceMs":250}}"#

    /// Connects to the fixture's live server, runs `body` with the outbound
    /// writer and what came back, then closes.
    static func session(
        port: Int, list: String = "seoul", _ body: @escaping @Sendable (WebSocketOutboundWriter, Received) async throws -> Void
    ) async throws {
        let received = Received()
        try await WebSocketClient.connect(url: "ws://127.0.0.1:\(port)/lists/\(list)/session", logger: Logger(label: "test")) {
            inbound, outbound, _ in
            let reader = Task {
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { received.append(text) }
                }
            }
            try await body(outbound, received)
            try await outbound.close(.normalClosure, reason: nil)
            _ = try? await reader.value
        }
    }

    @Test func aSwipeThenSilenceGivesExactlyOneCameraAboutADebounceAfterTheLastFrame() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await Self.session(port: port) { outbound, received in
                try await outbound.write(.text(Self.layout))
                try await received.wait(for: "marker")
                // The layout's camera, before any frame. That it comes at
                // once (t = 0) is LiveSessionClockTests' to check, on a test
                // clock: here a loaded machine delayed the layout itself by
                // over 250 ms of the session's time (a full parallel run).
                #expect(received.of("camera").map { $0.line["index"] as? Int } == [0])

                // A swipe: 20 frames, 16 ms apart, from card 0 to card 1 (page 312).
                var frames: [ContinuousClock.Instant] = []
                for step in 1...20 {
                    try await outbound.write(.text(#"{"offset":\#(Double(step) * 312 / 20)}"#))
                    frames.append(ContinuousClock.now)
                    try await Task.sleep(for: .milliseconds(16))
                }
                try await received.wait(for: "camera", count: 2)
                try await Task.sleep(for: .milliseconds(700))  // silence: nothing more may come
                let cameras = received.of("camera")
                #expect(cameras.count == 2)
                #expect(cameras.last?.line["index"] as? Int == 1)
                #expect(cameras.last?.line["storeId"] as? String == "hc-002")
                if let camera = cameras.last {
                    // The debounce runs from the last frame before the camera:
                    // on a loaded machine a sleep can overshoot past the
                    // debounce mid-swipe, and the camera then comes in that
                    // gap, still a debounce after the frame before it.
                    let lastFrame = frames.last { $0 < camera.at } ?? frames[0]
                    let delay = camera.at - lastFrame
                    #expect(delay >= .milliseconds(200), "camera \(delay) after the last frame")
                }
                #expect(received.of("marker").last?.line["previousIndex"] as? Int == 0)
                #expect(received.of("error").isEmpty)
            }
        }
    }

    @Test func aMapMessageFramesEveryCameraForTheMapTheCardsCover() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await Self.session(port: port) { outbound, received in
                try await outbound.write(.text(Self.layout))
                try await received.wait(for: "marker")
                // Before the map: the store's own coordinates, no framing keys.
                #expect(received.of("camera").first?.line["animation"] == nil)

                // The map alone keeps the layout; the view model frames the
                // focused store anew, for a 390 × 844 view whose bottom 240 pt
                // the cards cover (inset framing).
                try await outbound.write(
                    .text(
                        #"{"map":{"mapWidth":390,"mapHeight":844,"insets":{"bottom":240},"framing":"inset"}}"#))
                try await received.wait(for: "camera", count: 2)
                let framed = try #require(received.of("camera").last?.line)
                #expect(framed["index"] as? Int == 0)
                let padding = try #require(framed["padding"] as? [String: Any])
                #expect((padding["bottom"] as? NSNumber)?.doubleValue == 240)
                let target = try #require(framed["target"] as? [String: Any])
                #expect((target["latitude"] as? NSNumber)?.doubleValue == 37.4979)
                // Inset framing moves the centre south of the store, so the
                // store sits in the middle of the part of the map left visible.
                #expect(try #require((framed["latitude"] as? NSNumber)?.doubleValue) < 37.4979)
                #expect((framed["animation"] as? [String: Any])?["kind"] as? String == "none")
                // The whole 390 × 844 view at zoom 16 (256-pt tiles) spans
                // 360 · 390 / 2^24 degrees of longitude, for MapKit's region.
                let span = try #require(framed["span"] as? [String: Any])
                #expect((span["longitudeDelta"] as? NSNumber)?.doubleValue == 360.0 * 390 / 16_777_216)
                #expect((0.0143...0.0144).contains(try #require((span["latitudeDelta"] as? NSNumber)?.doubleValue)))

                // A tap then flies (or jumps) the framed camera to store 5.
                try await outbound.write(.text(#"{"tapMarker":5}"#))
                try await received.wait(for: "camera", count: 3)
                let tapped = try #require(received.of("camera").last?.line)
                #expect(tapped["index"] as? Int == 5)
                let kind = (tapped["animation"] as? [String: Any])?["kind"] as? String
                #expect(kind == "fly" || kind == "jump")

                try await outbound.write(.text(#"{"map":{"framing":"sideways"}}"#))
                try await received.wait(for: "error")
                #expect(received.of("error").count == 1)
            }
        }
    }

    @Test func aMarkerTapGivesCameraMarkerAndScrollAtOnce() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await Self.session(port: port) { outbound, received in
                try await outbound.write(.text(Self.layout))
                try await received.wait(for: "marker")
                try await outbound.write(.text(#"{"tapMarker":5}"#))
                try await received.wait(for: "scroll")
                try await received.wait(for: "marker", count: 2)
                let camera = try #require(received.of("camera").last)
                #expect(camera.line["index"] as? Int == 5)
                // At once: made in the same step as the tap's scroll, not a
                // debounce (250 ms) later in the session's time.
                let scrollTime = try #require(received.of("scroll").first?.line["t"] as? Double)
                let cameraTime = try #require(camera.line["t"] as? Double)
                #expect(cameraTime <= scrollTime && scrollTime - cameraTime < 250)
                #expect(received.of("marker").last?.line["index"] as? Int == 5)
                let scroll = try #require(received.of("scroll").first)
                #expect(scroll.line["index"] as? Int == 5)
                #expect((scroll.line["targetOffset"] as? NSNumber)?.doubleValue == 1560)
                #expect(scroll.line["animated"] as? Bool == true)
                // The carousel's own scroll settling on card 5 echoes nothing back.
                for step in 1...10 { try await outbound.write(.text(#"{"offset":\#(Double(step) * 156)}"#)) }
                try await Task.sleep(for: .milliseconds(600))
                #expect(received.of("camera").count == 2)
            }
        }
    }

    @Test func badMessagesAreAnsweredWithErrorsAndTheSessionGoesOn() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await Self.session(port: port) { outbound, received in
                for bad in [
                    "nope", "[1]", #"{"offset":"x"}"#, #"{"offset":true}"#, #"{"tapMarker":1.5}"#, #"{"tapMarker":99}"#,
                    #"{"flip":1}"#, #"{"layout":{"viewport":-5}}"#, #"{"layout":{},"initialIndex":500}"#,
                ] {
                    try await outbound.write(.text(bad))
                }
                try await outbound.write(.binary(ByteBuffer(string: "raw")))
                try await received.wait(for: "error", count: 10)
                #expect(received.of("error").count == 10)
                try await outbound.write(.text(#"{"tapMarker":3}"#))
                try await received.wait(for: "scroll")
                #expect(received.of("scroll").first?.line["index"] as? Int == 3)
            }
        }
    }

    @Test func sessionsAreIndependentAndAClosedSocketDisposesItsSession() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<3 {
                    group.addTask {
                        let found = StateLock<Int?>(nil)
                        try await Self.session(port: port) { outbound, received in
                            try await outbound.write(.text(#"{"layout":{"debounceMs":0},"initialIndex":\#(index)}"#))
                            try await received.wait(for: "camera")
                            #expect(fixture.server.sessions.openCount >= 1)
                            found.withLock { $0 = received.of("camera").first?.line["index"] as? Int }
                        }
                        return found.withLock { $0 }
                    }
                }
                var indices: [Int] = []
                for try await index in group { if let index { indices.append(index) } }
                #expect(indices.sorted() == [0, 1, 2])
            }
            try await eventually { fixture.server.sessions.openCount == 0 }
            #expect(fixture.server.sessions.openCount == 0)
        }
    }

    /// A client that does not wait for the 101: its first frames come in
    /// the handshake's packet, and reach the session as bytes the HTTP
    /// decoder hands on when it leaves (they once stopped the whole
    /// server: `MalformedRequestHandler` took them for a request part).
    /// Those and the frames sent once the session answers are handled in
    /// the order they were sent.
    @Test func messagesSentWithTheHandshakeAndAfterAreHandledInOrder() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            // Taps of cards 1...39 in turn: each moves the focus, so each
            // is answered by a scroll to its card.
            let taps = (0..<400).map { $0 % 39 + 1 }
            let socket = try await RawWebSocket.open(port: port, first: taps[..<200].map { #"{"tapMarker":\#($0)}"# })
            #expect(socket.reply.status == 101)
            _ = await socket.frames { $0.text.contains(#""type":"scroll""#) }
            for index in taps[200...] { socket.send(text: #"{"tapMarker":\#(index)}"#) }
            var scrolled: [Int] = []
            while scrolled.count < taps.count - 1, let frame = await socket.next() {
                guard frame.text.contains(#""type":"scroll""#) else { continue }
                let line = try JSONSerialization.jsonObject(with: Data(frame.payload)) as? [String: Any]
                scrolled.append(line?["index"] as? Int ?? -1)
            }
            #expect(scrolled == Array(taps.dropFirst()))
        }
    }
}
