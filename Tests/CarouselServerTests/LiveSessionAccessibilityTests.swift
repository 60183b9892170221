import Foundation
import Testing

@testable import CarouselServer

/// A live session's accessibility messages (issue 44) on a test clock:
/// VoiceOver paging with its `status` lines, autoplay with its `autoplay`
/// lines and pauses, and every bad value an `error` line after which the
/// session goes on.
@Suite struct LiveSessionAccessibilityTests {
    typealias Harness = LiveSessionClockTests.Harness
    static let layout = LiveSessionClockTests.layout

    private func errors(_ harness: Harness) -> [String] {
        harness.of("error").compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
    }

    @Test func badAccessibilityInputIsAnErrorLineAndTheSessionGoesOn() async throws {
        let harness = try Harness()
        let bad = [
            #"{"layout":{"statusTemplate":"Store {nmae}"}}"#,
            #"{"layout":{"autoplayMs":0}}"#,
            #"{"layout":{"autoplayMs":-5000}}"#,
            #"{"layout":{"autoplayMs":86400001}}"#,
            #"{"pause":"typing","on":true}"#,
            #"{"pause":"hover"}"#,
            #"{"autoplay":"go"}"#,
            #"{"accessibilityScroll":"left"}"#,
        ]
        for message in bad { await harness.send(message) }
        let messages = errors(harness)
        #expect(messages.count == bad.count)
        #expect(
            messages.first
                == "scroll script: layout.statusTemplate: unknown placeholder {nmae}; known placeholders: {position}, {count}, {name}, {id}, {hours}, {distance}"
        )
        #expect(messages[1...3].allSatisfy { $0.contains("layout.autoplayMs: autoplay interval must be a number of ms above 0 and at most 86400000") })
        #expect(messages[4] == "unknown pause reason 'typing': a pause reason is one of voiceOver, focus, hover, background, offscreen, mapGesture")
        #expect(messages[5] == #"pause needs "on": true when the reason begins, false when it ends"#)
        #expect(messages[6] == #"autoplay must be "start" or "stop""#)
        #expect(messages[7] == #"accessibilityScroll must be "next" or "previous""#)
        #expect(messages.allSatisfy { !$0.contains("\n") })
        // The session goes on: a good layout loads and pages.
        await harness.send(Self.layout)
        await harness.send(#"{"accessibilityScroll":"next"}"#)
        #expect(harness.of("camera").map { $0["index"] as? Int } == [0, 1])
    }

    @Test func accessibilityScrollMovesTheCameraAtOnceAndSpeaksTheStatusRepeatedAtAnEnd() async throws {
        let harness = try Harness()
        await harness.send(Self.layout)
        await harness.advance(by: 1_000)
        await harness.send(#"{"accessibilityScroll":"previous"}"#)
        #expect(harness.of("scroll").isEmpty, "at the start nothing moves")
        await harness.send(#"{"accessibilityScroll":"previous"}"#)
        await harness.send(#"{"accessibilityScroll":"next"}"#)
        await harness.send(#"{"accessibilityScroll":"next"}"#)
        let statuses = harness.of("status")
        #expect(statuses.map { $0["index"] as? Int } == [0, 0, 1, 2])
        #expect(statuses[0]["text"] as? String == statuses[1]["text"] as? String)
        #expect((statuses[2]["text"] as? String)?.hasPrefix("Store 2 of 44, ") == true)
        // No debounce: the cameras came with the pages, at 1000 ms.
        #expect(harness.of("camera").map { $0["index"] as? Int } == [0, 1, 2])
        #expect(harness.of("camera").last?["t"] as? Double == 1_000)
        #expect(harness.of("scroll").map { $0["index"] as? Int } == [1, 2])
        // The session took each page as done: nothing more follows.
        await harness.advance(by: 1_000)
        #expect(harness.of("camera").count == 3)
    }

    /// The transcript docs/server.md shows, line for line.
    @Test func theDocumentedTranscript() async throws {
        let harness = try Harness()
        await harness.send(#"{"layout": {"autoplayMs": 5000}}"#)
        // Each advance stops at a timer's deadline (the turn, then the
        // debounce), so each line's t is the deadline whatever the load: a
        // test clock moved past it would date the line when the session
        // got to it.
        await harness.advance(by: 5_000)
        await harness.advance(by: 250)
        await harness.advance(by: 750)
        await harness.send(#"{"pause": "typing", "on": true}"#)
        await harness.send(#"{"pause": "voiceOver", "on": true}"#)
        await harness.advance(by: 1_000)
        await harness.send(#"{"accessibilityScroll": "next"}"#)
        #expect(
            harness.texts == [
                #"{"t":0,"type":"camera","index":0,"storeId":"hc-001","latitude":37.4979,"longitude":127.0276,"zoom":16}"#,
                #"{"t":0,"type":"marker","index":0,"storeId":"hc-001","previousIndex":null}"#,
                #"{"t":0,"type":"autoplay","playing":true,"reasons":[]}"#,
                #"{"t":5000,"type":"scroll","index":1,"targetOffset":312,"animated":true}"#,
                #"{"t":5250,"type":"camera","index":1,"storeId":"hc-002","latitude":37.5206,"longitude":127.023,"zoom":16}"#,
                #"{"t":5250,"type":"marker","index":1,"storeId":"hc-002","previousIndex":0}"#,
                #"{"type":"error","error":{"code":"bad_message","message":"unknown pause reason 'typing': a pause reason is one of voiceOver, focus, hover, background, offscreen, mapGesture"}}"#,
                #"{"t":6000,"type":"autoplay","playing":false,"reasons":["voiceOver"]}"#,
                #"{"t":7000,"type":"camera","index":2,"storeId":"hc-003","latitude":37.527,"longitude":127.0395,"zoom":16}"#,
                #"{"t":7000,"type":"marker","index":2,"storeId":"hc-003","previousIndex":1}"#,
                #"{"t":7000,"type":"scroll","index":2,"targetOffset":624,"animated":true}"#,
                #"{"t":7000,"type":"status","index":2,"text":"Store 3 of 44, Haneul Coffee Apgujeong Rodeo"}"#,
            ])
    }

    @Test func autoplayTurnsOnTheSessionClockAndPausesForItsReasons() async throws {
        let harness = try Harness()
        await harness.send(#"{"layout":{"autoplayMs":5000,"debounceMs":250}}"#)
        #expect(harness.of("autoplay").map { $0["playing"] as? Bool } == [true])
        await harness.advance(by: 5_000)
        #expect(harness.of("scroll").map { $0["index"] as? Int } == [1])
        #expect(harness.of("scroll").last?["t"] as? Double == 5_000)
        await harness.send(#"{"pause":"hover","on":true}"#)
        await harness.advance(by: 10_000)
        #expect(harness.of("scroll").count == 1, "paused while the pointer hovers")
        await harness.send(#"{"pause":"hover","on":false}"#)
        // The interval starts again from zero when the last reason ends.
        await harness.advance(by: 4_999)
        #expect(harness.of("scroll").count == 1)
        await harness.advance(by: 1)
        #expect(harness.of("scroll").map { $0["index"] as? Int } == [1, 2])
        await harness.send(#"{"autoplay":"stop"}"#)
        await harness.send(#"{"pause":"focus","on":true}"#)
        await harness.send(#"{"pause":"focus","on":false}"#)
        await harness.advance(by: 20_000)
        #expect(harness.of("scroll").count == 2, "the user's stop holds until play")
        await harness.send(#"{"autoplay":"start"}"#)
        await harness.advance(by: 5_000)
        #expect(harness.of("scroll").count == 3)
        let states = harness.of("autoplay").map { line in
            "\(line["playing"] as? Bool == true ? "playing" : "paused") \((line["reasons"] as? [String]) ?? [])"
        }
        #expect(
            states == [
                "playing []", "paused [\"hover\"]", "playing []", "paused [\"userStop\"]", "paused [\"focus\", \"userStop\"]",
                "paused [\"userStop\"]", "playing []",
            ])
        // The camera follows each turn a debounce later.
        await harness.advance(by: 250)
        #expect(harness.of("camera").map { $0["index"] as? Int } == [0, 1, 2, 3])
    }
}
