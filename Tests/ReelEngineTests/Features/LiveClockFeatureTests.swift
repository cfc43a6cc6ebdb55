import Foundation
import ReelCore
@testable import ReelEngine
import ReelTestSupport
import XCTest

/// The live clock alone on the stand-in host: the item's `LiveStream` as the gateway serves its
/// playlists, positions on the window's scale, the readout, and the recovery after a pause longer
/// than the window.
final class LiveClockFeatureTests: XCTestCase {
    private static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    /// A live media playlist of `count` 2 s segments from sequence `first`.
    private static func playlist(first: Int, count: Int, closed: Bool = false) -> String {
        "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
            + (0..<count).map { "#EXTINF:2.0,\nseg\(first + $0).ts\n" }.joined() + (closed ? "#EXT-X-ENDLIST\n" : "")
    }

    /// A prerolled live item routed through the gateway, its window 20 s (10 segments), its first
    /// segment at stream time 30 (hlsdemux2's seekable start).
    @MainActor
    private static func routed(_ stream: LiveStream = LiveStream(program: nil)) -> (FeatureHostStandIn, LiveClock, LiveStream) {
        let host = FeatureHostStandIn(), clock = LiveClock()
        clock.wallClock = { Self.t0 }
        _ = stream.serve(Self.playlist(first: 100, count: 10), now: Self.t0)
        host.routedLiveStreams[host.currentItem!.id] = stream
        host.mediaInfo.isLive = true
        host.seekableRange = 30...48
        host.position = 40
        clock.itemStarted(host.currentItem!, switched: false, host: host)
        return (host, clock, stream)
    }

    func testARoutedLiveItemIsOnItsWindowsScaleOnceItPrerolled() {
        onMain {
            let (host, clock, _) = Self.routed()
            XCTAssertNil(clock.timeline(host: host), "not before preroll")
            host.isPrerolled = true
            let timeline = clock.timeline(host: host)
            XCTAssertEqual(timeline?.position(stream: 40), 10)
            XCTAssertEqual(timeline?.window, 0...20)
            var snapshot = PlaybackSnapshot()
            clock.readout(into: &snapshot, host: host)
            XCTAssertEqual(snapshot.live?.position, 10)
            XCTAssertEqual(snapshot.liveWindow, 0...20)
            XCTAssertEqual(snapshot.behindLiveEdge, 10, "the newest segment's end, not hlsdemux2's seekable end")
            XCTAssertEqual(snapshot.liveMode, .live)
            XCTAssertNil(snapshot.program)
        }
    }

    func testAnItemNotRoutedHasTheSeekableEndAsItsEdgeAndVODNoLiveClock() {
        onMain {
            let (host, clock, _) = Self.routed()
            host.isPrerolled = true
            let other = PlaybackItem(uri: "https://example.invalid/live.m3u8")
            clock.itemStarted(other, switched: true, host: host)
            XCTAssertNil(clock.stream, "the next item is not routed: its own (no) stream, not the last one's")
            XCTAssertNil(clock.timeline(host: host))
            XCTAssertEqual(clock.behindLiveEdge(host: host), 8, "the seekable range's end, 48, less the position, 40")
            XCTAssertNil(clock.mode(host: host))
            host.mediaInfo.isLive = false
            XCTAssertNil(clock.behindLiveEdge(host: host), "VOD")
            var snapshot = PlaybackSnapshot()
            clock.readout(into: &snapshot, host: host)
            XCTAssertNil(snapshot.live)
            XCTAssertNil(snapshot.liveMode)
        }
    }

    func testAClosedPlaylistIsCatchupAndUnloadingForgetsTheStream() {
        onMain {
            let program = LiveProgram(mode: .restart, start: Self.t0.addingTimeInterval(-600), end: Self.t0.addingTimeInterval(600))
            let (host, clock, stream) = Self.routed(LiveStream(program: program))
            host.isPrerolled = true
            XCTAssertEqual(clock.mode(host: host), program.decided(at: Self.t0).effectiveMode(at: Self.t0))
            var snapshot = PlaybackSnapshot()
            clock.readout(into: &snapshot, host: host)
            XCTAssertEqual(snapshot.program, program)
            _ = stream.serve(Self.playlist(first: 100, count: 10, closed: true), now: Self.t0)
            XCTAssertEqual(clock.mode(host: host), .catchup)
            XCTAssertNil(clock.timeline(host: host), "a closed playlist is VOD: no live window")
            clock.itemUnloaded(host: host)
            XCTAssertNil(clock.stream)
            XCTAssertNil(clock.mode(host: host))
        }
    }

    func testPlayingAfterAPauseLongerThanTheWindowResumesAtItsStartWithAWarning() {
        onMain {
            let (host, clock, stream) = Self.routed()
            host.isPrerolled = true
            clock.resuming(host: host)
            XCTAssertEqual(host.calls, [], "inside the window: it resumes where it is")
            XCTAssertEqual(host.events, [])
            // The window slid by 5 segments while paused: the position (stream 25) is 5 s before
            // its start and 1 s more since the playlist was read.
            _ = stream.serve(Self.playlist(first: 105, count: 10), now: Self.t0)
            clock.wallClock = { Self.t0.addingTimeInterval(1) }
            host.position = 25
            clock.resuming(host: host)
            guard case .warning(let warning)? = host.events.first else { return XCTFail("\(host.events)") }
            XCTAssertEqual(warning.kind, .behindLiveWindow)
            XCTAssertTrue(warning.message.contains("6.0 s behind"), warning.message)
            // One target duration into the window (2 s), on the stream's scale: 30 + 1 (slid) + 2.
            XCTAssertEqual(host.calls, ["seek-stream 33.00"])
        }
    }
}
