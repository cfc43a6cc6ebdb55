import Foundation
import ReelTestSupport
import XCTest

/// Items replaced soon after they start, over HTTP, as MPRIS OpenUri or a socket `load … replace`
/// does: every replaced pipeline is taken down mid-start. GStreamer 1.22's decodebin3 crashed in
/// that teardown (Workarounds/ParsingInDecodebin.swift): the old code died in about one run of
/// this test in three; `Resources/scripts/teardown-stress.py` runs it at length.
final class TeardownTests: XCTestCase {
    func testThirtyItemsReplacedMidStartOverHTTPLeaveReelRunning() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        let names = ["clip2s.mp4", "color10s.mp4", "hd10s.mp4"]
        for name in names { server.serve("/\(name)", .file(URL(fileURLWithPath: TestMedia.path(name)), contentType: "video/mp4")) }
        let dir = TestMedia.temporaryDirectory("reel-teardown")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--audio-sink", "fakesink",
                                                                        "--video-sink", "fakesink sync=true", server.url("/clip2s.mp4").absoluteString])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var generator = SystemRandomNumberGenerator()
        for i in 0..<30 {
            usleep(UInt32.random(in: 0...300_000, using: &generator))
            let uri = server.url("/" + names[i % names.count]).absoluteString
            let reply = client.request(["load", uri, "replace"], id: i + 1)
            XCTAssertEqual(reply?["error"] as? String, "success", "load \(i) answered; reel: \(reel.stderr.suffix(400))")
            if reply == nil { break }
        }
        usleep(500_000)  // the last item starts
        XCTAssertEqual(client.request(["get_property", "count"], id: 98)?["data"] as? Int, 1, "still answering, one item: \(reel.stderr.suffix(400))")
        XCTAssertEqual(client.request(["quit"], id: 99)?["error"] as? String, "success")
        let end = reel.finish(timeout: 10, dumpStacks: false)
        XCTAssertEqual(end.status, 0, "reel ended cleanly (a crash is signal 11): \(reel.stderr.suffix(600))")
        XCTAssertFalse(end.killed)
    }
}
