import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// Bad local input: each its own typed error, no crash, no hang, and the player stays usable.
final class ErrorTests: XCTestCase {
    private func failure(for file: String, expecting kind: PlaybackErrorKind, line: UInt = #line) throws {
        try onMain {
            let h = try EngineHarness(sync: false)
            defer { h.shutdown() }
            h.player.load(file)
            h.player.play()
            // A corrupt file's error is lost by GStreamer about one time in twenty: then the preroll
            // watchdog (5 s) and its probe report it, so the bound is well above that.
            h.wait("an error", timeout: 20, line: line) { !h.errors.isEmpty }
            XCTAssertEqual(h.errors.count, 1, line: line)
            XCTAssertEqual(h.errors.first?.kind, kind, "\(h.errors.first?.debug ?? "")", line: line)
            XCTAssertEqual(h.player.timeControlStatus, .paused, line: line)
            if case .failed(let e) = h.player.status { XCTAssertEqual(e.kind, kind, line: line) } else { XCTFail("status not failed", line: line) }
            XCTAssertFalse(h.errors.first?.message.isEmpty ?? true, line: line)
            // The player recovers: the next item plays.
            h.player.load(TestMedia.path("clip2s.mp4"))
            h.wait("next item ends", timeout: 10, line: line) { h.ended == 1 }
        }
    }

    func testMissingFileIsNotFound() throws {
        try failure(for: TestMedia.directory.appendingPathComponent("does-not-exist.mp4").path, expecting: .notFound)
    }

    func testZeroByteFileIsEmpty() throws {
        try failure(for: TestMedia.path("empty.mp4"), expecting: .emptyFile)
    }

    func testCorruptFileIsCorrupt() throws {
        try failure(for: TestMedia.path("corrupt.mp4"), expecting: .corrupt)
    }

    func testTextFileIsUnsupportedFormat() throws {
        try failure(for: TestMedia.path("notmedia.mp4"), expecting: .unsupportedFormat)
    }

    func testBadSinkDescriptionIsAnOutputError() throws {
        try onMain {
            XCTAssertThrowsError(try Player(configuration: PlayerConfiguration(videoSink: "no-such-element-xyz"))) { error in
                XCTAssertEqual((error as? PlaybackError)?.kind, .output)
            }
        }
    }
}
