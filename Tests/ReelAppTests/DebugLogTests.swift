import Foundation
import ReelTestSupport
import XCTest

/// Reel's decisions in GStreamer's debug log (`GST_DEBUG=reel*:5`), among GStreamer's own lines,
/// as Clapper's `clapper*` categories; and only when asked for.
final class DebugLogTests: XCTestCase {
    func testGSTDEBUGReelPrintsReelsDecisionsOnATwoSecondClip() throws {
        let clip = TestMedia.path("clip2s.mp4")
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--no-resume", "--audio-sink", "fakesink", clip], timeout: 30,
                                  environment: ["GST_DEBUG": "reel*:5,GST_STATES:4", "GST_DEBUG_NO_COLOR": "1"])
        XCTAssertEqual(r.status, 0, r.stderr.suffix(2000).description)
        let reel = r.stderr.split(separator: "\n").filter { $0.contains(" reel-") }
        XCTAssertGreaterThanOrEqual(reel.count, 10, "\(reel)")
        for category in ["reel-engine", "reel-queue"] {
            XCTAssertTrue(reel.contains { $0.contains(category) }, "\(category) in \(reel.prefix(20))")
        }
        for decision in ["load file://", "bus: state-changed from", "bus: async-done", "bus: eos", "hook"] where decision != "hook" {
            XCTAssertTrue(reel.contains { $0.contains(decision) }, "“\(decision)” in \(reel.prefix(40))")
        }
        // Interleaved with GStreamer's own: a GST_STATES line between Reel's first and last.
        let lines = r.stderr.split(separator: "\n")
        let first = lines.firstIndex { $0.contains(" reel-") } ?? lines.count, last = lines.lastIndex { $0.contains(" reel-") } ?? 0
        XCTAssertTrue(lines[first...max(first, last)].contains { $0.contains("GST_STATES") }, "GStreamer's lines among Reel's")

        let quiet = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--no-resume", "--audio-sink", "fakesink", clip], timeout: 30,
                                      environment: ["GST_DEBUG": "2"])
        XCTAssertEqual(quiet.status, 0)
        XCTAssertFalse(quiet.stderr.contains("reel-engine"), "not asked for: \(quiet.stderr.prefix(500))")
    }
}
