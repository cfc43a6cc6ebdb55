import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// Load → play → pause → play → end, as the user sees it through the events.
final class PlaybackStateTests: XCTestCase {
    func testStatusSequenceLoadPlayPausePlayEnd() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.waitReady()
            XCTAssertEqual(h.player.timeControlStatus, .paused, "loading alone must not start playback")
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.wait("0.5 s of playback") { h.player.position >= 0.5 }
            h.player.pause()
            XCTAssertEqual(h.player.timeControlStatus, .paused)
            let pausedAt = h.player.position
            GLibMainLoop.spin(for: 0.4)
            XCTAssertEqual(h.player.position, pausedAt, accuracy: 0.05, "position must hold while paused")
            h.player.play()
            h.wait("end", timeout: 6) { h.ended == 1 }

            XCTAssertEqual(h.statuses, [.unknown, .readyToPlay])
            // Each play waits briefly while the pipeline reaches PLAYING, as AVPlayer does.
            XCTAssertEqual(h.timeControls, [.waitingToPlayAtSpecifiedRate(.loading), .playing, .paused,
                                            .waitingToPlayAtSpecifiedRate(.loading), .playing, .paused])
            XCTAssertEqual(h.player.duration ?? 0, 2.0, accuracy: 0.1)
            XCTAssertEqual(h.player.mediaInfo.width, 640)
            XCTAssertEqual(h.player.mediaInfo.height, 360)
            XCTAssertEqual(h.player.mediaInfo.videoCodec?.hasPrefix("H.264"), true)
            XCTAssertEqual(h.player.mediaInfo.audioCodec, "MPEG-4 AAC")
            XCTAssertFalse(h.player.mediaInfo.isLive)
            XCTAssertTrue(h.player.isAtEnd)
            // readyToPlay precedes duration and media info, and the end is the last thing reported.
            let names = h.events.map(\.event.name)
            XCTAssertLessThan(names.firstIndex(of: "status")!, names.firstIndex(of: "duration")!)
            XCTAssertEqual(names.last(where: { $0 != "time-control" }), "end")
        }
    }

    func testPlayingBeforeLoadWaitsForAnItemThenPlays() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.play()
            XCTAssertEqual(h.player.timeControlStatus, .waitingToPlayAtSpecifiedRate(.noItem))
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.wait("playing") { h.player.timeControlStatus == .playing }
            XCTAssertEqual(h.timeControls.first, .waitingToPlayAtSpecifiedRate(.noItem))
            XCTAssertEqual(Array(h.timeControls.suffix(2)), [.waitingToPlayAtSpecifiedRate(.loading), .playing])
        }
    }

    func testPlayAfterEndReplaysFromStart() throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end") { h.ended == 1 }
            XCTAssertEqual(h.player.timeControlStatus, .paused)
            h.player.play()
            h.wait("second end") { h.ended == 2 }
            XCTAssertEqual(h.events.filter { if case .seeked = $0.event { true } else { false } }.count, 1)
        }
    }

    func testStopReturnsToStartAndPlayResumesFromZero() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.play()
            h.wait("1 s in") { h.player.position >= 1.0 }
            h.player.stop()
            XCTAssertEqual(h.player.position, 0)
            XCTAssertEqual(h.player.timeControlStatus, .stopped, "issue 11: stop is its own time-control state")
            h.player.play()
            h.wait("playing again") { h.player.timeControlStatus == .playing }
            XCTAssertLessThan(h.player.position, 0.6)
        }
    }

    func testReplayEndActionRestartsAtZeroAndKeepsPlaying() throws {
        try onMain {
            let h = try EngineHarness(endAction: .replay)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 15) { h.ended == 1 }  // room for a preroll restart (Player's watchdog)
            let endIndex = h.events.count
            h.wait("progress after replay") {
                h.events[endIndex...].contains { if case .progress(let p, _, _, _) = $0.event { p > 0.3 } else { false } }
            }
            let after = h.events[endIndex...].compactMap { if case .progress(let p, _, _, _) = $0.event { p } else { nil } }
            XCTAssertLessThan(after.first ?? 99, 1.0, "replay restarts at the start")
            XCTAssertEqual(h.player.timeControlStatus, .playing)
            XCTAssertFalse(h.player.isAtEnd)
        }
    }

    func testVolumeAndMuteRoundTrip() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.waitReady()
            h.player.volume = 0.25
            XCTAssertEqual(h.player.volume, 0.25, accuracy: 0.001)
            h.player.isMuted = true
            XCTAssertTrue(h.player.isMuted)
            h.player.volume = 1.5
            XCTAssertEqual(h.player.volume, 1.5, accuracy: 0.001)
            h.player.isMuted = false
            XCTAssertFalse(h.player.isMuted)
            h.player.volume = -3
            XCTAssertEqual(h.player.volume, 0, "volume clamps at 0")
            let volumes = h.events.compactMap { if case .volume(let v, let m) = $0.event { "\(v)/\(m)" } else { nil } }
            XCTAssertEqual(volumes, ["0.25/false", "0.25/true", "1.5/true", "1.5/false", "0.0/false"])
        }
    }
}
