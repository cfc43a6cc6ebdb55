import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest

/// GstDiscoverer on generated media: what `reel inspect` and `reel check` report.
final class MediaProbeTests: XCTestCase {
    func testAGoodClipIsDescribed() throws {
        let r = MediaProbe.probe(TestMedia.path("clip2s.mp4"))
        XCTAssertNil(r.error)
        XCTAssertEqual(try XCTUnwrap(r.duration), 2.0, accuracy: 0.1)
        XCTAssertTrue(r.isSeekable)
        XCTAssertFalse(r.isLive)
        XCTAssertEqual(r.video.count, 1)
        XCTAssertEqual(r.video.first?.width, 640)
        XCTAssertEqual(r.video.first?.height, 360)
        XCTAssertEqual(try XCTUnwrap(r.video.first?.framerate), 30, accuracy: 0.01)
        XCTAssertEqual(r.video.first?.codec?.hasPrefix("H.264"), true, r.video.first?.codec ?? "nil")
        XCTAssertEqual(r.audio.first?.codec, "MPEG-4 AAC")
        XCTAssertEqual(r.audio.first?.channels, 2)
        XCTAssertEqual(r.audio.first?.sampleRate, 44100)
        XCTAssertNotNil(r.container)
        let json = r.json.serialized()
        XCTAssertTrue(json.contains(#""width":640"#), json)
        XCTAssertTrue(r.text.contains("640x360"), r.text)
    }

    func testAudioOnlyHasNoVideoStreams() {
        let r = MediaProbe.probe(TestMedia.path("tone3s.m4a"))
        XCTAssertNil(r.error)
        XCTAssertTrue(r.video.isEmpty)
        XCTAssertEqual(r.audio.count, 1)
    }

    func testBadInputsGetTypedErrors() {
        let cases: [(String, PlaybackErrorKind)] = [
            (TestMedia.directory.appendingPathComponent("missing-\(UUID().uuidString).mp4").path, .notFound),
            (TestMedia.path("empty.mp4"), .emptyFile),
            (TestMedia.path("notmedia.mp4"), .unsupportedFormat),
        ]
        for (path, kind) in cases {
            let r = MediaProbe.probe(path)
            XCTAssertEqual(r.error?.kind, kind, "\(path): \(String(describing: r.error))")
            XCTAssertTrue(r.video.isEmpty)
        }
        let corrupt = MediaProbe.probe(TestMedia.path("corrupt.mp4"))
        XCTAssertNotNil(corrupt.error, "a damaged moov atom is an error")
    }
}
