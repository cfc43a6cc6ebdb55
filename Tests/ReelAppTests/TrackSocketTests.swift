import Foundation
import ReelTestSupport
import XCTest

/// Tracks over the control socket: listed, chosen by index, subtitles off and hidden; --alang.
final class TrackSocketTests: XCTestCase {
    func testTracksOverTheSocketAndAPreferredLanguage() throws {
        let dir = TestMedia.temporaryDirectory("reel-tracks")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--alang", "fre", "--audio-sink", "fakesink sync=true",
                                                                        "--video-sink", "fakesink sync=true", TestMedia.path("tracks.mkv")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }
        eventually("--alang fre chose the French audio") { get("audio-track") as? Int == 1 }
        let tracks = try XCTUnwrap(get("tracks") as? [[String: Any]])
        XCTAssertEqual(tracks.map { $0["type"] as? String }, ["video", "audio", "audio", "subtitle", "subtitle"])
        XCTAssertEqual(tracks.compactMap { $0["language"] as? String }, ["en", "fr", "en", "fr"])
        XCTAssertEqual(tracks.filter { $0["type"] as? String == "audio" }.map { $0["index"] as? Int }, [0, 1])
        eventually("the French audio plays") {
            (get("tracks") as? [[String: Any]])?.first { $0["type"] as? String == "audio" && $0["selected"] as? Bool == true }?["language"] as? String == "fr"
        }

        XCTAssertEqual(set("audio-track", 0), "success")
        eventually("English audio again") { get("audio-track") as? Int == 0 }
        XCTAssertEqual(set("subtitle-track", 1), "success")
        eventually("French subtitles") { get("subtitle-track") as? Int == 1 }
        XCTAssertEqual(set("sub-visibility", false), "success")
        XCTAssertEqual(get("sub-visibility") as? Bool, false)
        eventually("no text stream plays while hidden") {
            (get("tracks") as? [[String: Any]])?.contains { $0["type"] as? String == "subtitle" && $0["selected"] as? Bool == true } == false
        }
        XCTAssertEqual(set("subtitle-track", "no"), "success")
        eventually("no subtitle track") { get("subtitle-track") is NSNull }
        XCTAssertEqual(set("audio-track", 5), "unavailable")
        XCTAssertEqual(set("audio-track", "loud"), "unsupported format for accessing property")
        XCTAssertEqual(set("audio-track", "no"), "unsupported format for accessing property", "audio cannot be off: a word for a number, mpv's error")
        id += 1
        XCTAssertEqual(c.request(["quit"], id: id)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }

    /// `--sub-file` offers a file with the item; the socket lists it (`external`), chooses it by
    /// index and sizes subtitles (`sub-scale`); `--screenshot-at` frames carry it.
    /// mpv's `sub-add` over the socket: a file for the playing item, listed after its tracks,
    /// chosen and drawn (`sub-text`); a file that is not subtitles is a warning and nothing else.
    func testSubAddGivesThePlayingItemASubtitleFileAndShowsIt() throws {
        let dir = TestMedia.temporaryDirectory("reel-sub-add")
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("Later.srt"), junk = dir.appendingPathComponent("junk.srt")
        try "1\n00:00:00,000 --> 00:00:09,500\nADDED LATER\n".write(to: srt, atomically: true, encoding: .utf8)
        try "no cues here\n".write(to: junk, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("ctl.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket, "--no-resume", "--audio-sink", "fakesink sync=true",
                                                                        "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "time-control" && $0["status"] as? String == "playing" })
        XCTAssertEqual((get("tracks") as? [[String: Any]])?.filter { $0["type"] as? String == "subtitle" }.count, 0, "none before")
        id += 1
        XCTAssertEqual(c.request(["sub-add", srt.path], id: id)?["error"] as? String, "success")
        let tracks = try XCTUnwrap(c.waitForEvent { e in
            e["event"] as? String == "tracks" && (e["tracks"] as? [[String: Any]])?.contains { $0["external"] as? Bool == true } == true
        })
        let added = try XCTUnwrap((tracks["tracks"] as? [[String: Any]])?.first { $0["external"] as? Bool == true })
        XCTAssertEqual(added["title"] as? String, "Later.srt")
        XCTAssertEqual(added["selected"] as? Bool, true, "shown, as mpv's sub-add does")
        let deadline = Date().addingTimeInterval(10)
        while get("sub-text") as? String != "ADDED LATER", Date() < deadline { usleep(50_000) }
        XCTAssertEqual(get("sub-text") as? String, "ADDED LATER", "drawn on the picture")
        id += 1
        XCTAssertEqual(c.request(["sub-add", junk.path], id: id)?["error"] as? String, "success", "accepted; read off the main thread")
        let warning = try XCTUnwrap(c.waitForEvent { $0["event"] as? String == "warning" })
        XCTAssertEqual((warning["warning"] as? [String: Any])?["code"] as? String, "subtitle-file", "\(warning)")
        XCTAssertEqual(get("sub-text") as? String, "ADDED LATER", "the shown file stays")
    }

    func testSubtitleFilesFromTheCommandLineOverTheSocketAndInScreenshots() throws {
        let dir = TestMedia.temporaryDirectory("reel-subfile-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let srt = dir.appendingPathComponent("talk.de.srt").path
        try "1\n00:00:00,500 --> 00:00:05,000\nGUTEN TAG ALLERSEITS\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, [
            "--headless", "--ipc", socket, "--sub-file", srt, "--slang", "de", "--sub-scale", "1.5", "--screenshot-dir", dir.path,
            "--screenshot-at", "1.5", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        let deadline = Date().addingTimeInterval(10)
        while (try? FileManager.default.contentsOfDirectory(atPath: dir.path))?.contains(where: { $0.hasSuffix(".png") }) == false, Date() < deadline {
            usleep(100_000)
        }
        let tracks = try XCTUnwrap(get("tracks") as? [[String: Any]])
        let file = try XCTUnwrap(tracks.first { $0["external"] as? Bool == true }, "\(tracks)")
        XCTAssertEqual(file["title"] as? String, "talk.de.srt")
        XCTAssertEqual(file["language"] as? String, "de")
        XCTAssertEqual(file["selected"] as? Bool, true, "--slang de chose it")
        XCTAssertEqual(get("subtitle-track") as? Int, 0)
        XCTAssertEqual(get("sub-scale") as? Double, 1.5)
        XCTAssertEqual(set("sub-scale", 9), "success")
        XCTAssertEqual(get("sub-scale") as? Double, 4, "clamped")
        XCTAssertEqual(set("sub-scale", "big"), "unsupported format for accessing property")
        let png = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasSuffix(".png") })
        // color10s.mp4 is green at 1.5 s: white text in the bottom quarter is the subtitle.
        let text = PixelProbe.whiteText(dir.appendingPathComponent(png).path, region: (0, 270, 640, 90))
        XCTAssertGreaterThan(text.share, 0.002, "the screenshot at 1.5 s shows the subtitle")
        id += 1
        XCTAssertEqual(c.request(["quit"], id: id)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }

    /// `--sub-delay`, `--events-subs` and the socket's `sub-delay`, `sub-pos`, `sub-text`: the
    /// `subtitle` events say what is on screen and when, on the item's clock.
    func testSubtitleDelayTextAndPositionOverTheSocketAndInTheEventStream() throws {
        let dir = TestMedia.temporaryDirectory("reel-subdelay")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let srt = dir.appendingPathComponent("talk.srt").path
        try "1\n00:00:01,000 --> 00:00:02,500\nGUTEN TAG\n\n2\n00:00:04,000 --> 00:00:05,000\n<i>Bis bald</i>\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--events-subs", "--ipc", socket, "--sub-file", srt, "--sub-delay", "1",
            "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return c.request(["get_property", name], id: id)?["data"] }
        func set(_ name: String, _ value: Any) -> String? { id += 1; return c.request(["set_property", name, value], id: id)?["error"] as? String }
        XCTAssertEqual(get("sub-delay") as? Double, 1)
        XCTAssertEqual(get("sub-pos") as? Int, 100)
        XCTAssertEqual(set("sub-delay", 700), "invalid-argument")
        XCTAssertEqual(set("sub-pos", 151), "invalid-argument")
        XCTAssertEqual(set("sub-pos", 40), "success")
        XCTAssertEqual(get("sub-pos") as? Int, 40)
        var seen: String?
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, seen == nil {
            seen = get("sub-text") as? String
            usleep(50_000)
        }
        XCTAssertEqual(seen, "GUTEN TAG", "sub-text while the first cue is on screen")
        while Date() < deadline, reel.stdout.components(separatedBy: "\"event\":\"subtitle\"").count < 5 { usleep(100_000) }
        id += 1
        XCTAssertEqual(c.request(["quit"], id: id)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
        let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let said = events.filter { $0["event"] as? String == "subtitle" }.map { ($0["text"] as? String, $0["position"] as? Double ?? -1) }
        XCTAssertEqual(said.map(\.0), ["GUTEN TAG", nil, "Bis bald", nil], "text only, markup left out: \(said)")
        for ((_, at), expected) in zip(said, [2.0, 3.5, 5.0, 6.0]) {
            XCTAssertEqual(at, expected, accuracy: 0.04, "each change on the first frame 1 s after its time (30 fps): \(said)")
        }
    }

    /// A subtitle file with a broken cue: one `subtitle-file` warning names its line, the other
    /// cues are drawn and the item plays to its end.
    func testABrokenCueIsAWarningNamingItsLineAndTheRestPlays() throws {
        let dir = TestMedia.temporaryDirectory("reel-subproblem")
        defer { try? FileManager.default.removeItem(at: dir) }
        let srt = dir.appendingPathComponent("broken.srt").path
        try "1\n00:00:00,200 --> 00:00:01,000\nFIRST\n\n2\n00:00:01,0x0 --> 00:00:01,500\nBROKEN\n\n3\n00:00:01,200 --> 00:00:01,800\nLAST\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--events-subs", "--sub-file", srt,
                                                                 "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                                                 TestMedia.path("clip2s.mp4")], timeout: 60)
        XCTAssertEqual(r.status, 0, r.stderr)
        let events = r.jsonObjects
        let warnings = events.filter { $0["event"] as? String == "warning" }.compactMap { $0["warning"] as? [String: Any] }
        XCTAssertEqual(warnings.map { $0["code"] as? String }, ["subtitle-file"])
        XCTAssertTrue((warnings.first?["message"] as? String)?.contains("broken.srt”, line 6: the timing line") == true, "\(warnings)")
        let texts = events.filter { $0["event"] as? String == "subtitle" }.map { $0["text"] as? String }
        XCTAssertEqual(texts, ["FIRST", nil, "LAST", nil])
        XCTAssertEqual(events.filter { $0["event"] as? String == "end" }.count, 1)
    }
}

/// Issue 57's proof of the property model: mpv's `sub-speed`, added as one declaration in its
/// feature (`SubtitleLook`): a file's cue at 1 s shows at 2 s at speed 2, in the event stream's
/// `subtitle` events (what is drawn, and the stream time of the frame that first shows it).
final class SubtitleSpeedTests: XCTestCase {
    func testSubSpeedMultipliesTheFilesTimes() throws {
        let dir = TestMedia.temporaryDirectory("reel-subspeed")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("ctl.sock").path
        let srt = dir.appendingPathComponent("talk.srt").path
        try "1\n00:00:01,000 --> 00:00:02,500\nGUTEN TAG\n".write(toFile: srt, atomically: true, encoding: .utf8)
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, [
            "--headless", "--ipc", socket, "--sub-file", srt, "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
            TestMedia.path("color10s.mp4")])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        var id = 0
        func ask(_ command: [Any]) -> [String: Any]? { id += 1; return c.request(command, id: id) }
        XCTAssertEqual(ask(["get_property", "sub-speed"])?["data"] as? Double, 1)
        XCTAssertEqual(ask(["set_property", "pause", true])?["error"] as? String, "success")
        XCTAssertEqual(ask(["set_property", "sub-speed", 2])?["error"] as? String, "success")
        XCTAssertEqual(ask(["set_property", "sub-speed", 0])?["error"] as? String, "invalid-argument", "0.1 to 10")
        XCTAssertEqual(ask(["add", "sub-speed", 100])?["error"] as? String, "success")
        XCTAssertEqual(ask(["get_property", "sub-speed"])?["data"] as? Double, 10, "add is held to the range")
        XCTAssertEqual(ask(["set_property", "sub-speed", 2])?["error"] as? String, "success")
        XCTAssertEqual(ask(["seek", 0, "absolute"])?["error"] as? String, "success")
        XCTAssertEqual(ask(["set_property", "pause", false])?["error"] as? String, "success")
        let shown = c.waitForEvent(timeout: 15) { $0["event"] as? String == "subtitle" && $0["text"] as? String == "GUTEN TAG" }
        let at = try XCTUnwrap(shown?["position"] as? Double, "\(c.events.filter { $0["event"] as? String == "subtitle" })")
        XCTAssertEqual(at, 2, accuracy: 0.15, "the cue at 1 s shows at 2 s (speed 2)")
        XCTAssertEqual(ask(["quit"])?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }
}
