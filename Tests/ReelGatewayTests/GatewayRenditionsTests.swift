import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import Synchronization
import XCTest

/// The first time the gateway serves an item's master it tells the app the renditions (as the
/// player will fetch them) and holds that answer until the app says its bitrate window is in
/// force: the demuxer's first variant is chosen from the master it receives, so a pin given
/// after that comes too late (a short stream is then fetched whole at the first variant).
final class GatewayRenditionsTests: XCTestCase {
    private final class Told: Sendable {
        let calls = Mutex<[(GatewayItemID, [HLSVariant])]>([])
        let released = Mutex<ContinuousClock.Instant?>(nil)
    }

    func testTheMasterWaitsForTheAppAndTheRenditionsAreTheGatewaysURLs() async throws {
        TestMedia.ensureGenerated()
        let gateway = try await Gateway.start()
        let told = Told()
        gateway.setRenditionsHandler { id, renditions, done in
            told.calls.withLock { $0.append((id, renditions)) }
            // The app's main thread is busy for a moment (a window being built).
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) {
                told.released.withLock { $0 = .now }
                done()
            }
        }
        let (id, url) = gateway.register(GatewayItem(url: TestMedia.url("hls/vod/master.m3u8")))
        let master = try await GatewayTestClient.fetch(url)
        let answered = ContinuousClock.now
        XCTAssertEqual(master.status, 200)
        let released = try XCTUnwrap(told.released.withLock { $0 }, "the master was answered before the app put its window in force")
        XCTAssertLessThanOrEqual(released, answered)
        let calls = told.calls.withLock { $0 }
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(calls.first?.0, id)
        let renditions = try XCTUnwrap(calls.first?.1)
        XCTAssertEqual(renditions.map { $0.resolution?.height }, [360, 180])
        // The URIs the rewritten master lists (what the player fetches, what fetch reports name).
        let listed = master.text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.map(String.init)
        XCTAssertEqual(renditions.map(\.uri), listed)
        XCTAssertTrue(listed.allSatisfy { $0.hasPrefix(gateway.baseURL + "/") }, "\(listed)")

        // Later answers (the playlist reader, the discoverer, a reload) are not held again.
        let again = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(again.text, master.text)
        XCTAssertEqual(told.calls.withLock { $0.count }, 1)
        await gateway.shutdown()
    }

    func testAnAppThatNeverAnswersDelaysTheMasterOnlyByTheBound() async throws {
        TestMedia.ensureGenerated()
        let gateway = try await Gateway.start()
        gateway.setRenditionsHandler { _, _, _ in }  // never done
        let (_, url) = gateway.register(GatewayItem(url: TestMedia.url("hls/vod/master.m3u8")))
        let started = ContinuousClock.now
        let master = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(master.status, 200)
        XCTAssertTrue(master.text.contains("#EXT-X-STREAM-INF"))
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .seconds(2.5), "held for the bound")
        await gateway.shutdown()
    }

    func testAMediaPlaylistOrASingleRenditionIsNotHeld() async throws {
        TestMedia.ensureGenerated()
        let gateway = try await Gateway.start()
        let told = Told()
        gateway.setRenditionsHandler { id, renditions, _ in told.calls.withLock { $0.append((id, renditions)) } }
        let (_, url) = gateway.register(GatewayItem(url: TestMedia.url("hls/aes/index.m3u8")))
        let playlist = try await GatewayTestClient.fetch(url)
        XCTAssertEqual(playlist.status, 200)
        XCTAssertEqual(told.calls.withLock { $0.count }, 0)
        await gateway.shutdown()
    }
}
