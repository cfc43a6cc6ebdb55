import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// Seeks and rates on color10s.mp4: 30 fps, a keyframe every second, palette color i in second i.
final class SeekAndRateTests: XCTestCase {
    func testKeyframeSeekSnapsToTheKeyframeBefore() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            h.player.seek(to: 3.5, mode: .keyframe)
            XCTAssertEqual(h.player.position, 3.5, "the seek target is shown until the seek lands")
            h.wait("seeked") { h.events.contains { if case .seeked = $0.event { true } else { false } } }
            XCTAssertEqual(h.player.position, 3.0, accuracy: 0.04)
            XCTAssertEqual(h.player.displayedFrameTime ?? -1, 3.0, accuracy: 0.04)
        }
    }

    func testAccurateSeekLandsOnTheTarget() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            for target in [3.5, 7.25, 0.5] {
                let before = h.events.count
                h.player.seek(to: target, mode: .accurate)
                h.wait("seeked to \(target)") { h.events[before...].contains { if case .seeked = $0.event { true } else { false } } }
                XCTAssertEqual(h.player.position, target, accuracy: 0.034, "within one frame")
                XCTAssertEqual(h.player.displayedFrameTime ?? -1, target, accuracy: 0.034)
            }
        }
    }

    func testSkipClampsToTheItem() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            var seeks = 0
            @MainActor func skip(_ d: Double) {
                seeks += 1
                h.player.skip(by: d)
                h.wait("seek \(seeks)") { h.events.filter { if case .seeked = $0.event { true } else { false } }.count == seeks }
            }
            skip(-5)
            XCTAssertEqual(h.player.position, 0, accuracy: 0.034)
            skip(4)
            XCTAssertEqual(h.player.position, 4, accuracy: 0.034)
            skip(60)
            XCTAssertEqual(h.player.position, h.player.duration ?? 0, accuracy: 0.05, "clamped to the duration")
        }
    }

    func testSeekWhilePlayingReportsSeekingThenPlaying() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            h.player.seek(to: 6, mode: .accurate)
            XCTAssertEqual(h.player.timeControlStatus, .waitingToPlayAtSpecifiedRate(.seeking))
            h.wait("playing after the seek") { h.player.timeControlStatus == .playing }
            h.wait("progress past 6 s") { h.player.position > 6.2 }
            let tail = h.timeControls.suffix(2)
            XCTAssertEqual(Array(tail), [.waitingToPlayAtSpecifiedRate(.seeking), .playing])
        }
    }

    func testDoubleRateAdvancesTwiceAsFast() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.loadReady("color10s.mp4", at: 1)
            XCTAssertTrue(h.player.setRate(2.0))
            XCTAssertEqual(h.player.rate, 2.0)
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            let start = (Date(), h.player.position)
            GLibMainLoop.spin(for: 1.5)
            let elapsed = Date().timeIntervalSince(start.0)
            let advanced = h.player.position - start.1
            XCTAssertEqual(advanced / elapsed, 2.0, accuracy: 0.25, "media time runs at twice the clock")
            // The frames shown are at the timestamps the clock says.
            let frame = h.player.displayedFrameTime ?? -1
            XCTAssertEqual(frame, h.player.position, accuracy: 0.2)
            XCTAssertEqual(h.events.compactMap { if case .rate(let r) = $0.event { r } else { nil } }, [2.0])
        }
    }

    func testReverseRatePlaysBackwards() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.loadReady("color10s.mp4", at: 6)
            XCTAssertTrue(h.player.setRate(-1.0))
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            var frames: [Double] = []
            let deadline = Date().addingTimeInterval(1.5)
            while Date() < deadline {
                GLibMainLoop.spin(for: 0.1)
                if let f = h.player.displayedFrameTime { frames.append(f) }
            }
            XCTAssertGreaterThan(frames.count, 5)
            XCTAssertEqual(frames, frames.sorted(by: >), "frame timestamps decrease at rate −1")
            XCTAssertLessThan(frames.last!, 5.3)
            XCTAssertGreaterThan(frames.last!, 3.5)
            let progress = h.progress().map(\.position)
            XCTAssertEqual(progress, progress.sorted(by: >), "progress is monotonic (downwards) at rate −1")
        }
    }

    /// Back to rate 1 after playing backwards, playback goes on past where the reverse began: the
    /// forward seek sets the segment's stop to none (left as it was, the reverse seek's stop ended
    /// the item there, 0.7 s on: mpv's and Totem's users step back and forth).
    func testForwardAfterReversePlaysPastWhereTheReverseBegan() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.loadReady("color10s.mp4", at: 3)
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            XCTAssertTrue(h.player.setRate(-1))
            GLibMainLoop.spin(for: 0.5)
            XCTAssertLessThan(h.player.position, 3, "backwards")
            XCTAssertTrue(h.player.setRate(1))
            h.wait("past where the reverse began, by 1.5 s") { h.player.position > 4.5 }
            XCTAssertFalse(h.events.contains { if case .playedToEnd = $0.event { true } else { false } }, "the item did not end early")
            XCTAssertEqual(h.player.timeControlStatus, .playing)
        }
    }

    /// Paused, rate −64 then 1 (MPRIS clients clamp any Rate into 1/64…64): the reverse trick
    /// mode reaches the item's start while paused, and playbin3's about-to-finish comes there;
    /// the next item is not handed over (it was: playbin3 switched to it at the next seek, the
    /// current one reported cut short), and playing goes on from the same place.
    func testAReverseExcursionWhilePausedKeepsTheItemAndItsNext() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.prepareNext(TestMedia.path("clip2s.mp4"))
            h.waitReady()
            h.player.play()
            h.wait("2 s in") { h.player.position >= 2 }
            h.player.pause()
            h.wait("paused") { h.player.timeControlStatus == .paused }
            XCTAssertTrue(h.player.setRate(-64))
            GLibMainLoop.spin(for: 0.4)
            XCTAssertTrue(h.player.setRate(1))
            GLibMainLoop.spin(for: 0.4)
            let from = h.player.position
            h.player.play()
            h.wait("1.5 s on from \(from)") { h.player.position > from + 1.5 }
            XCTAssertTrue(h.player.currentURI?.hasSuffix("color10s.mp4") ?? false, "\(h.player.currentURI ?? "none")")
            let changes = h.events.filter { if case .itemChanged = $0.event { true } else { false } }.count
            XCTAssertEqual(changes, 1, "no switch to the next item")
            XCTAssertFalse(h.events.contains { if case .warning = $0.event { true } else { false } }, "not reported cut short")
            XCTAssertFalse(h.events.contains { if case .playedToEnd = $0.event { true } else { false } })
        }
    }

    func testFastKeyUnitTrickModeAtFourTimes() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            XCTAssertTrue(h.player.setRate(4.0))
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            // Key-unit trick mode: only keyframes (one a second in color10s.mp4) are shown.
            var frames: [Double] = []
            let deadline = Date().addingTimeInterval(1.0)
            while Date() < deadline {
                GLibMainLoop.spin(for: 0.05)
                if let f = h.player.displayedFrameTime, frames.last != f { frames.append(f) }
            }
            XCTAssertGreaterThan(h.player.position, 2.5, "4× covers well over 2.5 s of media per second")
            XCTAssertEqual(h.player.rate, 4.0)
            XCTAssertGreaterThanOrEqual(frames.count, 2, "\(frames)")
            for f in frames { XCTAssertEqual(f, f.rounded(), accuracy: 0.02, "only keyframes: \(frames)") }
        }
    }

    func testHalfRateAdvancesAtHalfTheClockWithEveryFrame() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.waitReady()
            XCTAssertTrue(h.player.setRate(0.5))
            h.player.play()
            h.wait("playing") { h.player.timeControlStatus == .playing }
            GLibMainLoop.spin(for: 0.3)
            let start = (Date(), h.player.position)
            var frames: [Double] = []
            while Date().timeIntervalSince(start.0) < 1.5 {
                GLibMainLoop.spin(for: 0.02)
                if let f = h.player.displayedFrameTime, frames.last != f { frames.append(f) }
            }
            let rate = (h.player.position - start.1) / Date().timeIntervalSince(start.0)
            XCTAssertEqual(rate, 0.5, accuracy: 0.1, "media time runs at half the clock")
            XCTAssertEqual(frames, frames.sorted(), "frames move forward")
            XCTAssertTrue(frames.contains { abs($0 - $0.rounded()) > 0.02 }, "not only keyframes: \(frames)")
            XCTAssertEqual(h.player.timeControlStatus, .playing, "the status stays truthful at 0.5×")
            XCTAssertEqual(h.events.compactMap { if case .rate(let r) = $0.event { r } else { nil } }, [0.5])
        }
    }
}
