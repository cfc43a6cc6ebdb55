import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// A live HLS stream (a sliding-window playlist served by wall clock, HTTPFixtureServer) played
/// behind its live edge and brought back to it (`Player.behindLiveEdge`, `seekToLiveEdge`).
final class LiveEdgeTests: XCTestCase {
    func testSeekBackThenToTheLiveEdge() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        let segments = (0..<6).map { (uri: String(format: "segment%05d.ts", $0), duration: 2.0) }
        for i in 0..<6 {
            let name = String(format: "segment%05d.ts", i)
            server.serve("/live/" + name, .file(TestMedia.directory.appendingPathComponent("hls/live/" + name), contentType: "video/mp2t"))
        }
        // All twelve seconds are in the window when the stream starts, and it stays live (no end
        // tag). hlsdemux2 keeps three target durations back from the newest segment as its edge.
        server.serve("/live/index.m3u8", .live(.init(segments: segments, window: 6, targetDuration: 2, start: Date(), preroll: 12, endsAtLast: false)))
        try onMain {
            let h = try EngineHarness(sync: true)
            defer { h.shutdown() }
            h.player.load(server.url("/live/index.m3u8").absoluteString)
            h.player.play()
            h.waitReady()
            h.wait("playing a while", timeout: 15) { h.player.position > 1 }
            XCTAssertTrue(h.player.mediaInfo.isLive)
            let window = try XCTUnwrap(h.player.seekableRange, "a live HLS stream has a seekable window")
            XCTAssertGreaterThan(window.upperBound - window.lowerBound, 3, "\(window)")
            let atStart = try XCTUnwrap(h.player.behindLiveEdge)
            print("live: window \(window), behind the edge at start \(atStart) s")

            h.player.seek(to: window.lowerBound, mode: .keyframe)
            h.waitSeekDone()
            h.wait("playing after the seek back", timeout: 10) { h.player.timeControlStatus == .playing }
            let behind = try XCTUnwrap(h.player.behindLiveEdge)
            XCTAssertGreaterThan(behind, atStart + 3, "the seek back put playback further behind the edge")

            h.player.seekToLiveEdge()
            h.waitSeekDone()
            h.wait("playing at the edge", timeout: 10) { h.player.timeControlStatus == .playing }
            let back = try XCTUnwrap(h.player.behindLiveEdge)
            XCTAssertLessThan(back, behind - 3, "back near the live edge")
            XCTAssertLessThan(back, 4.5, "within about two segments of the edge")
            XCTAssertTrue(h.errors.isEmpty, "\(h.errors)")
        }
    }
}
