import Foundation
import ReelTestSupport
import XCTest

/// `reel inspect`: what is in a file, as text and as JSON.
final class InspectCommandTests: XCTestCase {
    func testMediaFileAsTextAndJSON() throws {
        let text = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", TestMedia.path("clip2s.mp4")], timeout: 30)
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("640x360"), text.stdout)
        XCTAssertTrue(text.stdout.contains("H.264"), text.stdout)
        XCTAssertTrue(text.stdout.contains("MPEG-4 AAC, 2 ch, 44100 Hz"), text.stdout)
        XCTAssertTrue(text.stdout.contains("0:02"), text.stdout)

        let json = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", TestMedia.path("color10s.mp4")], timeout: 30)
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertEqual(json.lines.count, 1, "one JSON object")
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(o["type"] as? String, "media")
        XCTAssertEqual(o["ok"] as? Bool, true)
        XCTAssertEqual(try XCTUnwrap(o["duration"] as? Double), 10, accuracy: 0.1)
        XCTAssertEqual(o["seekable"] as? Bool, true)
        let video = try XCTUnwrap((o["video"] as? [[String: Any]])?.first)
        XCTAssertEqual(video["width"] as? Int, 640)
        XCTAssertEqual(try XCTUnwrap(video["framerate"] as? Double), 30, accuracy: 0.01)
        XCTAssertEqual((o["audio"] as? [[String: Any]])?.first?["sampleRate"] as? Int, 44100)
    }

    func testBadInputsExitNonZeroWithTheTypedError() throws {
        let cases = [("notmedia.mp4", "unsupported-format"), ("empty.mp4", "empty-file")]
        for (name, code) in cases {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "--json", TestMedia.path(name)], timeout: 30)
            XCTAssertEqual(r.status, 1, name)
            let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
            XCTAssertEqual(o["ok"] as? Bool, false)
            XCTAssertEqual((o["error"] as? [String: Any])?["code"] as? String, code)
        }
        let missing = ProcessRunner.run(ProcessRunner.reelExecutable, ["inspect", "/nonexistent/file.mp4"], timeout: 30)
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("not-found"), missing.stderr)
    }
}
