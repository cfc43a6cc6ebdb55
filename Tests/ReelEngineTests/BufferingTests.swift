import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// gst-play.c's buffering rule on a real progressive HTTP stream whose server goes quiet midway:
/// the player, wanting to play, holds PAUSED and says it is waiting (buffering, with the
/// percentage) while the queue refills, then plays on by itself to the end. The file is big enough
/// (2.7 MB) that the part sent before the pause starts playback: network sources buffer bytes
/// before the demuxer (Workarounds/ParsingInDecodebin.swift), up to 60 % of 1 MiB.
final class BufferingTests: XCTestCase {
    func testANetworkPauseMidwayIsWaitingForBufferingThenPlayingAgain() throws {
        let body = try Data(contentsOf: TestMedia.url("hd10s.mp4"))
        let server = try MisbehavingHTTPServer(.pauseMidway(body: body, contentType: "video/mp4", firstBytes: body.count * 2 / 5, pause: 8))
        defer { server.stop() }
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(server.url)
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.wait("waiting for the network", timeout: 15) {
                if case .waitingToPlayAtSpecifiedRate(.buffering) = h.player.timeControlStatus { return true }
                return false
            }
            let stalledAt = h.player.position
            XCTAssertGreaterThan(stalledAt, 1, "it played what it had first")
            XCTAssertEqual(h.player.intent, .playing, "the user's wish is kept while waiting")
            GLibMainLoop.spin(for: 0.5)
            XCTAssertEqual(h.player.position, stalledAt, accuracy: 0.1, "time stands still while buffering")
            h.wait("playing again once the data comes", timeout: 15) { h.player.timeControlStatus == .playing }
            h.wait("the end", timeout: 20) { h.ended == 1 }
            XCTAssertTrue(h.errors.isEmpty, "\(h.errors)")

            // The order users see: playing → waiting(buffering p < 100) … → playing → … → paused at the end.
            let controls = h.timeControls
            let firstPlaying = try XCTUnwrap(controls.firstIndex(of: .playing))
            let buffering = controls.indices.filter {
                if case .waitingToPlayAtSpecifiedRate(.buffering(let p)) = controls[$0] { return p < 100 && $0 > firstPlaying }
                return false
            }
            let lastBuffering = try XCTUnwrap(buffering.last, "\(controls)")
            XCTAssertTrue(controls[(lastBuffering + 1)...].contains(.playing), "\(controls)")
            let percents = h.events.compactMap { if case .buffering(let p) = $0.event { p } else { nil } }
            XCTAssertTrue(percents.contains { $0 < 100 } && percents.last == 100, "\(percents)")
        }
    }
}
