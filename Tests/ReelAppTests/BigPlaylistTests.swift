import Foundation
import ReelTestSupport
import XCTest

/// A big playlist plays while it is read (issue 51): the queue starts with the list's first
/// entries (`QueueTail.firstEntries`) and the rest is appended from a background read. Seen from
/// outside: the whole list is played in order, its problems said once each, and the end of the
/// first entries is no end of the queue even when all of them fail at once.
final class BigPlaylistTests: XCTestCase {
    private var dir: URL!

    override func setUp() {
        super.setUp()
        dir = TestMedia.temporaryDirectory("reel-bigplaylist")
    }

    override func tearDown() {
        if let dir { try? FileManager.default.removeItem(at: dir) }
        super.tearDown()
    }

    /// 600 missing files (they fail as fast as the queue can go: the first 500 are done before
    /// the rest is read), then the clip, then a line of binary junk.
    func testTheEndOfTheFirstEntriesIsNoEndOfTheQueue() throws {
        var text = "#EXTM3U\n"
        for i in 0..<600 { text += "/nonexistent/reel-big/missing-\(i).mp4\n" }
        text += TestMedia.path("clip2s.mp4") + "\n" + "bad\u{1}line\n"
        let list = dir.appendingPathComponent("big.m3u")
        try text.write(to: list, atomically: true, encoding: .utf8)
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
            ["--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink sync=false", list.path], timeout: 120)
        XCTAssertFalse(result.timedOut, result.stderr)
        XCTAssertEqual(result.status, 1, "a playlist problem: status 1. \(result.stderr.suffix(2000))")
        let events = result.jsonObjects
        let finished = events.filter { $0["event"] as? String == "finished" }
        XCTAssertEqual(finished.count, 1)
        XCTAssertEqual(finished.first?["played"] as? Int, 1, "the clip after the first 500 entries played")
        XCTAssertEqual(finished.first?["failed"] as? Int, 600)
        let items = events.filter { $0["event"] as? String == "item" }.compactMap { $0["item"] as? Int }
        XCTAssertEqual(items, Array(0...600), "every entry, in order, once")
        let junk = events.filter { e in
            e["event"] as? String == "error" && ((e["error"] as? [String: Any])?["message"] as? String)?.contains("line 603") == true
        }
        XCTAssertEqual(junk.count, 1, "the rest's problem said once")
        XCTAssertTrue(junk.first?["item"] is NSNull)
        XCTAssertEqual(result.stderr.components(separatedBy: "line 603: binary data").count - 1, 1, result.stderr.suffix(1000).description)
    }

    /// 20,000 entries: the socket counts them all while the first plays, and the last is the
    /// list's last (its title).
    /// reel headless with a socket on a list of `count` entries of color10s.mp4 titled "Entry i".
    private func playTitledList(_ count: Int, _ extra: [String] = []) throws -> (BackgroundProcess, IPCTestClient) {
        var text = "#EXTM3U\n"
        let clip = TestMedia.path("color10s.mp4")
        for i in 0..<count { text += "#EXTINF:10,Entry \(i)\n\(clip)\n" }
        let list = dir.appendingPathComponent("titled-\(count).m3u8")
        try text.write(to: list, atomically: true, encoding: .utf8)
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
            ["--headless", "--ipc", socket] + extra + ["--audio-sink", "fakesink", "--video-sink", "fakesink sync=true", list.path])
        guard let client = IPCTestClient(path: socket, timeout: 30) else {
            _ = reel.finish(timeout: 10)
            throw NSError(domain: "BigPlaylistTests", code: 1, userInfo: [NSLocalizedDescriptionKey: "no control socket: \(reel.stderr)"])
        }
        return (reel, client)
    }

    func testTheWholeListIsQueuedWhileTheFirstEntryPlays() throws {
        let (reel, client) = try playTitledList(20_000)
        defer { _ = reel.finish(timeout: 10) }
        var count: Int?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            count = client.request(["get_property", "playlist-count"], id: 1)?["data"] as? Int
            if count == 20_000 { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTAssertEqual(count, 20_000, reel.stderr)
        XCTAssertEqual(client.request(["get_property", "playlist-pos"], id: 2)?["data"] as? Int, 0, "still on the first entry")
        XCTAssertEqual(client.request(["get_property", "playlist/19999/title"], id: 3)?["data"] as? String, "Entry 19999")
        XCTAssertEqual(client.request(["get_property", "playlist/500/title"], id: 4)?["data"] as? String, "Entry 500", "the rest follows the first 500")

        // Edited over the socket with mpv's commands, as the panel's drop and Delete edit it: the
        // current item keeps playing wherever it goes.
        func title(_ i: Int) -> String? { client.request(["get_property", "playlist/\(i)/title"], id: 6)?["data"] as? String }
        func say(_ command: [Any]) -> String? { client.request(command, id: 7)?["error"] as? String }
        XCTAssertEqual(say(["playlist-move", 5, 0]), "success")
        XCTAssertEqual([title(0), title(1), title(5), title(6)], ["Entry 5", "Entry 0", "Entry 4", "Entry 6"])
        XCTAssertEqual(client.request(["get_property", "playlist-pos"], id: 8)?["data"] as? Int, 1, "the current item moved with its neighbour's move")
        XCTAssertEqual(say(["playlist-move", 1, 20_000]), "success", "the count: to the end")
        XCTAssertEqual([title(19_999), title(1)], ["Entry 0", "Entry 1"])
        XCTAssertEqual(client.request(["get_property", "playlist-pos"], id: 8)?["data"] as? Int, 19_999)
        XCTAssertEqual(say(["playlist-remove", 0]), "success")
        XCTAssertEqual(client.request(["get_property", "playlist-count"], id: 9)?["data"] as? Int, 19_999)
        XCTAssertEqual(title(0), "Entry 1")
        XCTAssertEqual(say(["playlist-move", 19_999, 0]), "unavailable", "no item 19,999 any more")
        XCTAssertEqual(say(["playlist-move", 19_998, 0]), "success")
        XCTAssertEqual(say(["playlist-remove", "current"]), "success")
        XCTAssertEqual(client.request(["get_property", "playlist-count"], id: 9)?["data"] as? Int, 19_998)
        XCTAssertEqual(title(0), "Entry 1")
        let moved = Date().addingTimeInterval(10)
        while client.request(["get_property", "playlist/0/current"], id: 10)?["data"] as? Bool != true && Date() < moved { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(client.request(["get_property", "playlist/0/current"], id: 10)?["data"] as? Bool, true, "the next one plays")
        _ = client.request(["quit"], id: 5)
    }
    /// mpv's playlist-shuffle, playlist-unshuffle and playlist-clear over the socket (JSON and
    /// text form), registered by a component of their own: a new order with the playing entry
    /// first, the original order back, then only the playing entry left — and it plays on.
    func testShuffleUnshuffleAndClearOverTheSocketWhileTheCurrentEntryPlaysOn() throws {
        let (reel, client) = try playTitledList(20, ["--start", "3"])
        defer { _ = reel.finish(timeout: 10) }
        var id = 0
        func get(_ name: String) -> Any? { id += 1; return client.request(["get_property", name], id: id)?["data"] }
        func say(_ command: [Any]) -> String? { id += 1; return client.request(command, id: id)?["error"] as? String }
        func titles() -> [String] { (0..<(get("playlist-count") as? Int ?? 0)).compactMap { get("playlist/\($0)/title") as? String } }
        let playing = Date().addingTimeInterval(20)
        while get("time-control") as? String != "playing" && Date() < playing { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertEqual(get("time-control") as? String, "playing", reel.stderr)
        let original = (0..<20).map { "Entry \($0)" }
        XCTAssertEqual(titles(), original)

        XCTAssertEqual(say(["playlist-shuffle"]), "success")
        let shuffled = titles()
        XCTAssertEqual(get("shuffle") as? Bool, true)
        XCTAssertEqual(shuffled.first, "Entry 3", "the playing entry first")
        XCTAssertEqual(get("playlist-pos") as? Int, 0)
        XCTAssertNotEqual(shuffled, original)
        XCTAssertEqual(Set(shuffled), Set(original))
        client.sendRaw("playlist-shuffle\n")  // mpv's text form: a new order again
        XCTAssertEqual(client.nextReply()?["error"] as? String, "success")
        XCTAssertNotEqual(titles(), shuffled)
        XCTAssertEqual(say(["playlist-unshuffle"]), "success")
        XCTAssertEqual(titles(), original, "the order from before the first shuffle")
        XCTAssertEqual(get("playlist-pos") as? Int, 3)

        XCTAssertEqual(say(["playlist-clear", 1]), "invalid-argument")
        XCTAssertEqual(say(["playlist-clear"]), "success")
        XCTAssertEqual(get("playlist-count") as? Int, 1)
        XCTAssertEqual(titles(), ["Entry 3"])
        XCTAssertEqual(get("playlist/0/current") as? Bool, true)
        let before = get("position") as? Double ?? 0
        let later = Date().addingTimeInterval(10)
        while (get("position") as? Double ?? 0) < before + 0.5 && Date() < later { Thread.sleep(forTimeInterval: 0.05) }
        XCTAssertGreaterThan(get("position") as? Double ?? 0, before + 0.5, "the playing entry plays on")
        XCTAssertEqual(get("time-control") as? String, "playing")
        _ = say(["quit"])
    }
}
