import Foundation
@testable import ReelApp
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// Protected items are registered with the gateway when first loaded or prepared, and released
/// when they leave the queue: a long session does not keep every item it ever had.
final class QueueGatewayReleaseTests: XCTestCase {
    func testRemovedAndClearedItemsLeaveTheGateway() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        for i in 0..<3 { server.serve("/c\(i).mp4", .file(TestMedia.url(String(format: "gapless-%02d.mp4", i)), contentType: "video/mp4")) }
        let router = GatewayRouter(settings: ProtectedStreamSettings(headers: [try HeaderField(name: "X-Reel-Key", value: "release-secret")]))
        defer { router.shutdown() }
        try onMain {
            let player = try Player(configuration: PlayerConfiguration(audioSink: "fakesink sync=true", videoSink: "fakesink sync=true"))
            defer { player.shutdown() }
            let controller = QueueSequencer(player: player)
            controller.router = router
            defer { controller.detach() }
            controller.append((0..<3).map { QueueItem(uri: server.url("/c\($0).mp4").absoluteString) })
            let ids = controller.queue.items.map(\.id)
            controller.load(ids[0])
            XCTAssertTrue(GLibMainLoop.run(until: { player.status == .readyToPlay }, timeout: 20), "the routed item plays")
            let gateway = try XCTUnwrap(router.gateway)
            XCTAssertEqual(gateway.itemCount, 2, "the current item and its gapless successor are registered")
            XCTAssertEqual(router.originalURI(for: player.currentURI ?? ""), server.url("/c0.mp4").absoluteString,
                           "the player plays the gateway's URL for item 0")

            controller.remove(ids[1])
            XCTAssertEqual(gateway.itemCount, 2, "item 1 went; item 2, the new successor, came")
            controller.clear()
            XCTAssertEqual(gateway.itemCount, 0, "nothing is left registered")
            XCTAssertTrue(server.requests.allSatisfy { $0.header("X-Reel-Key") == "release-secret" })
        }
    }
}
