import CarouselServer
import Foundation
import HummingbirdTesting
import HummingbirdWSClient
import Locks
import Logging
import StoreCatalog
import Testing

/// A session follows its list: replaced under it, the session sends the new
/// count, keeps the selected store in focus, and refuses a tap past the new
/// end; deleted, it ends. Real time: the session looks at its list about
/// once a second, so each wait allows 10 s and the checks are on content.
@Suite(.serialized) struct SessionListChangeTests {
    static let layout = #"{"layout":{"viewport":390,"itemLength":300,"spacing":12,"behavior":"groupPagingCentered","debounceMs":0}}"#

    /// A replacement of `seoul` (44 stores) with 3, `kept` among them at index 1.
    static func replace(_ catalog: Catalog, keeping kept: String) throws {
        let csv = "id,name,latitude,longitude\nnew-1,New One,37.50,127.00\n\(kept),Kept,37.51,127.01\nnew-2,New Two,37.52,127.02\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("session-replace-\(UUID().uuidString).csv")
        try Data(csv.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try catalog.importList(named: "seoul", from: makeStoreRowReader(for: file, format: .csv), options: ImportOptions(replace: true))
    }

    @Test func aReplacedListSendsItsCountKeepsTheFocusedStoreAndRefusesTapsPastItsEnd() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(Self.layout))
                try await received.wait(for: "marker")
                try await outbound.write(.text(#"{"tapMarker":5}"#))
                try await received.wait(for: "marker", count: 2)
                let focused = try #require(received.of("marker").last?.line["storeId"] as? String)
                #expect(received.of("list").isEmpty)

                try Self.replace(fixture.catalog, keeping: focused)
                try await received.wait(for: "list", timeout: .seconds(10))
                #expect(received.of("list").map { $0.line["count"] as? Int } == [3])
                // The focused store, now at index 1, stays selected, and the
                // carousel is told to rest on its card without animation.
                try await received.wait(for: "scroll", count: 2, timeout: .seconds(10))
                let all = received.all.map(\.line)
                let listAt = try #require(all.firstIndex { $0["type"] as? String == "list" })
                let after = all[(listAt + 1)...]
                let marker = try #require(after.first { $0["type"] as? String == "marker" })
                #expect(marker["index"] as? Int == 1)
                #expect(marker["storeId"] as? String == focused)
                let scroll = try #require(after.first { $0["type"] as? String == "scroll" })
                #expect(scroll["index"] as? Int == 1)
                #expect(scroll["animated"] as? Bool == false)
                #expect(received.of("error").isEmpty)

                // Store 5 is past the new end: refused, nothing scrolls.
                try await outbound.write(.text(#"{"tapMarker":5}"#))
                try await received.wait(for: "error", timeout: .seconds(10))
                let error = try #require(received.of("error").first?.line["error"] as? [String: Any])
                #expect((error["message"] as? String)?.contains("5") == true)
                // Store 2 is in it: the tap goes through.
                try await outbound.write(.text(#"{"tapMarker":2}"#))
                try await received.wait(for: "scroll", count: 3, timeout: .seconds(10))
                #expect(received.of("scroll").last?.line["index"] as? Int == 2)
                #expect(received.of("marker").last?.line["storeId"] as? String == "new-2")
                #expect(received.of("scroll").count == 3)
            }
        }
    }

    @Test func aListReplacedWithoutTheFocusedStoreRestsOnTheNearestPosition() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            try await SessionTests.session(port: port) { outbound, received in
                try await outbound.write(.text(Self.layout))
                try await received.wait(for: "marker")
                // The carousel rests on card 20 (312 pt a page).
                try await outbound.write(.text(#"{"offset":6240}"#))
                try await received.wait(for: "marker", count: 2, timeout: .seconds(10))
                #expect(received.of("marker").last?.line["index"] as? Int == 20)

                try Self.replace(fixture.catalog, keeping: "elsewhere")
                try await received.wait(for: "list", timeout: .seconds(10))
                try await received.wait(for: "scroll", count: 2, timeout: .seconds(10))
                // Position 20 is past the 3 stores: the last card.
                #expect(received.of("marker").last?.line["index"] as? Int == 2)
                #expect(received.of("marker").last?.line["storeId"] as? String == "new-2")
                #expect(received.of("camera").last?.line["index"] as? Int == 2)
                #expect(received.of("scroll").last?.line["index"] as? Int == 2)
            }
        }
    }

    @Test func aDeletedListEndsTheSessionWithAReason() async throws {
        let fixture = try ServerFixture()
        try await fixture.application.test(.live) { client in
            let port = try #require(client.port)
            let received = Received()
            let closeFrame = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(port)/lists/seoul/session", logger: Logger(label: "test")
            ) { inbound, outbound, _ in
                try await outbound.write(.text(Self.layout))
                // Bounded: a server that never closes gets a close from here,
                // whose echo does not carry the reason checked below.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(20))
                    try await outbound.close(.normalClosure, reason: "test gave up")
                }
                defer { watchdog.cancel() }
                var deleted = false
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { received.append(text) }
                    if !deleted, !received.of("marker").isEmpty {
                        deleted = true
                        _ = try await fixture.catalog.deleteList("seoul")
                    }
                }
            }
            #expect(closeFrame?.closeCode == .normalClosure)
            #expect(closeFrame?.reason == "list deleted")
            try await eventually { fixture.server.sessions.openCount == 0 }
            #expect(fixture.server.sessions.openCount == 0)
        }
    }
}
