import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// A file cut short plays what it has and ends cleanly (GStreamer posts EOS, no error). The
/// player says so: a `.warning` before its `.playedToEnd`, with where it stopped, and the seek
/// bar stops there rather than jumping to the duration. `truncated.mp4` is `color10s.mp4` cut
/// at 60 kB, about 3.1 s in.
final class EarlyEndTests: XCTestCase {
    override func setUp() { TestMedia.ensureGenerated() }

    func testAFileCutShortSaysWhereItStoppedAndTheSeekBarStopsThere() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("truncated.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.errors, [], "it plays what it has: no error")
            XCTAssertEqual(h.warnings.count, 1, "\(h.events.map(\.event))")
            let warning = try XCTUnwrap(h.warnings.first)
            XCTAssertEqual(warning.kind, .corrupt)
            XCTAssertTrue(warning.message.hasPrefix("It stops at 3."), warning.message)
            XCTAssertTrue(warning.message.hasSuffix("of its 10.02 s: the file is damaged or cut short."), warning.message)
            XCTAssertEqual(warning.uri, MediaLocator.uri(for: TestMedia.path("truncated.mp4")))
            let names = h.events.map(\.event.name)
            XCTAssertEqual(names.firstIndex(of: "warning").map { $0 + 1 }, names.firstIndex(of: "end"), "the warning comes just before the end")
            let last = try XCTUnwrap(h.progress().last?.position)
            XCTAssertEqual(last, 3.1, accuracy: 0.6, "the seek bar stops where the media did")
            XCTAssertEqual(h.player.position, last, accuracy: 0.3)
        }
    }

    /// An observer that reads the position with every event (the window's view state does, from
    /// the socket's snapshot) does not move the end: the events of the end come once the player
    /// is at it, so a position asked for then is where the media stopped, not the pipeline's
    /// answer at EOS (the duration).
    func testReadingThePositionDuringTheEndEventsKeepsWhereTheMediaStopped() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            var read: [Double] = []
            h.player.addObserver { [player = h.player] event in
                if case .progress = event { read.append(player.position) }
                if case .warning = event { read.append(player.position) }
            }
            h.player.load(TestMedia.path("truncated.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.player.position, 3.1, accuracy: 0.6, "where the media stopped, after every read: \(read.suffix(4))")
            XCTAssertLessThan(read.last ?? 99, 5, "the last read, at the end's events: \(read.suffix(4))")
        }
    }

    func testAnItemThatPlaysToItsDurationHasNoWarning() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.warnings, [])
            XCTAssertEqual(h.progress().last?.position ?? 0, 2.0, accuracy: 0.1, "the seek bar reaches the end")
        }
    }

    /// Gapless: the cut file's data runs out, about-to-finish switches to the next item early,
    /// and the warning is still said, for the right item, before its end.
    func testAFileCutShortBeforeAGaplessSwitchIsStillReported() throws {
        try onMain {
            let h = try EngineHarness()
            defer { h.shutdown() }
            let truncated = MediaLocator.uri(for: TestMedia.path("truncated.mp4"))
            h.player.load(truncated)
            h.player.prepareNext(TestMedia.path("color10s.mp4"))
            h.player.play()
            h.wait("the switch", timeout: 20) { h.ended == 1 }
            let names = h.events.map(\.event.name)
            XCTAssertEqual(h.warnings.map(\.uri), [truncated], "\(names)")
            XCTAssertTrue(h.warnings.first?.message.hasPrefix("It stops at 3.") == true, "where its data ended: \(h.warnings)")
            XCTAssertEqual(names.firstIndex(of: "warning").map { $0 + 1 }, names.firstIndex(of: "end"), "\(names)")
            XCTAssertEqual(h.errors, [])
        }
    }

    /// Unsynchronised sinks (a QA run going faster than real time): an item plays out between two
    /// progress readings, so where it got to is what reached playsink (the stream log), not the
    /// last reading, which said "It stops at 0.00 s of its 10.02 s" of a whole file.
    func testAGaplessSwitchFasterThanRealTimeJudgesTheEndByWhatWasPlayed() throws {
        try onMain {
            let h = try EngineHarness(sync: false, progressInterval: 1)  // the command line's reading interval
            defer { h.shutdown() }
            h.player.load(TestMedia.path("color10s.mp4"))
            h.player.prepareNext(TestMedia.path("clip2s.mp4"))
            h.player.play()
            h.wait("the switch", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.warnings, [], "it played whole: \(h.events.map(\.event.name))")
        }
    }

    /// The same at an end (EOS) with no frame to go by: an audio file played faster than real time
    /// said "It stops at 0.00 s of its 3.00 s".
    func testAnAudioFilePlayedFasterThanRealTimeHasNoWarningAtItsEnd() throws {
        try onMain {
            let h = try EngineHarness(sync: false, progressInterval: 1)
            defer { h.shutdown() }
            h.player.load(TestMedia.path("tone3s.m4a"))
            h.player.play()
            h.wait("end", timeout: 20) { h.ended == 1 }
            XCTAssertEqual(h.warnings, [], "it played whole: \(h.events.map(\.event.name))")
            XCTAssertEqual(h.progress().last?.position ?? 0, 3.0, accuracy: 0.1, "the seek bar reaches the end")
        }
    }
}
