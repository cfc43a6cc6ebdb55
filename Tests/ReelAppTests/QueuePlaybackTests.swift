import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Runs the built `reel` binary (build with `swift build` first) on playlists and asserts the
/// `--events` stream: every item change with its queue index, failed items' errors, the finished
/// counts, and the exit status (0 only when every item played).
final class QueuePlaybackTests: XCTestCase {
    private var dir: URL!

    override func setUp() {
        dir = TestMedia.temporaryDirectory("reel-queue-app")
        TestMedia.ensureGenerated()
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private struct Run {
        var status: Int32
        var events: [[String: Any]]
        var stderr: String
        func named(_ name: String) -> [[String: Any]] { events.filter { $0["event"] as? String == name } }
    }

    private func reel(_ args: [String], timeout: Double = 90) throws -> Run {
        let exe = ProcessRunner.reelExecutable
        guard FileManager.default.isExecutableFile(atPath: exe) else { throw XCTSkip("build reel first (swift build): \(exe)") }
        let r = ProcessRunner.run(exe, ["--headless", "--events", "--audio-sink", "fakesink sync=true"] + args, timeout: timeout)
        XCTAssertFalse(r.timedOut, "reel timed out; stderr: \(r.stderr)")
        XCTAssertEqual(r.malformedJSONLines, [], "every event line is JSON")
        let events = r.jsonObjects
        return Run(status: r.status, events: events, stderr: r.stderr)
    }

    private func media(_ name: String) -> String { TestMedia.path(name) }

    private func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func testPlaylistWithGoodMissingAndCorruptEntries() throws {
        let list = try write("mixed.m3u8", """
        #EXTM3U
        #EXTINF:1,First
        \(media("gapless-00.mp4"))
        #EXTINF:1,Missing one
        \(dir.path)/does-not-exist.mp4
        #EXTINF:10,Broken
        \(media("corrupt.mp4"))
        #EXTINF:1,Last
        file://\(media("gapless-01.mp4"))
        """)
        let run = try reel([list])
        let items = run.named("item")
        XCTAssertEqual(items.map { $0["item"] as? Int }, [0, 1, 2, 3], "every item change, in queue order: \(run.stderr)")
        XCTAssertEqual(items.map { $0["title"] as? String }, ["First", "Missing one", "Broken", "Last"])
        XCTAssertEqual(items.map { $0["uri"] as? String }, [
            URL(fileURLWithPath: media("gapless-00.mp4")).absoluteString,
            dir.appendingPathComponent("does-not-exist.mp4").absoluteString,
            URL(fileURLWithPath: media("corrupt.mp4")).absoluteString,
            URL(fileURLWithPath: media("gapless-01.mp4")).absoluteString,
        ])
        let errors = run.named("error")
        XCTAssertEqual(errors.map { $0["item"] as? Int }, [1, 2], "errors: \(errors); stderr: \(run.stderr)")
        let codes = errors.map { ($0["error"] as? [String: Any])?["code"] as? String }
        XCTAssertEqual(codes.first, "not-found")
        XCTAssertNotNil(codes.last ?? nil)
        // GStreamer 1.22's playbin3 sometimes swallows qtdemux's error on this file (gst-launch-1.0
        // too); the player's preroll watchdog then fails it as "corrupt" as well.
        XCTAssertTrue(["corrupt", "unsupported-format", "decode"].contains(codes.last ?? ""), "\(codes)")
        XCTAssertEqual(run.named("end").map { $0["item"] as? Int }, [0, 3], "the good items played to their end")
        let finished = try XCTUnwrap(run.named("finished").first)
        XCTAssertEqual(finished["played"] as? Int, 2)
        XCTAssertEqual(finished["failed"] as? Int, 2)
        XCTAssertTrue(finished["item"] is NSNull)
        XCTAssertEqual(run.events.last?["event"] as? String, "finished")
        XCTAssertEqual(run.status, 1, "not every item played")
        XCTAssertTrue(run.stderr.contains("Missing one"), run.stderr)
    }

    /// A folder plays its media files by name, naturally ordered and through subfolders, as mpv
    /// and Totem play one (it used to fail: "This is a folder, not a media file"); a folder with
    /// none still fails, saying it is a folder.
    func testAFolderPlaysItsMediaFilesInNaturalOrder() throws {
        let dir = TestMedia.temporaryDirectory("reel-folder")
        defer { try? FileManager.default.removeItem(at: dir) }
        let album = dir.appendingPathComponent("Album"), empty = dir.appendingPathComponent("Empty")
        for folder in [album.appendingPathComponent("Disc 2"), empty] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        for (source, name) in [("gapless-03.mp4", "10 Ten.mp4"), ("gapless-01.mp4", "2 Two.mp4"), ("tone3s.m4a", "Disc 2/1 One.m4a")] {
            try FileManager.default.copyItem(atPath: TestMedia.path(source), toPath: album.appendingPathComponent(name).path)
        }
        _ = FileManager.default.createFile(atPath: album.appendingPathComponent("cover.jpg").path, contents: Data([1]))
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--no-resume", "--audio-sink", "fakesink sync=false",
                                                                "--video-sink", "fakesink sync=false", album.path, empty.path], timeout: 60)
        let items = r.jsonObjects.filter { $0["event"] as? String == "item" }.compactMap { $0["uri"] as? String }
        XCTAssertEqual(items.map { URL(string: $0)?.lastPathComponent }, ["2 Two.mp4", "10 Ten.mp4", "1 One.m4a", "Empty"], r.stdout)
        let errors = r.jsonObjects.filter { $0["event"] as? String == "error" }.compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
        XCTAssertEqual(errors.count, 1, "\(errors)")
        XCTAssertTrue(errors.first?.contains("folder") == true, "\(errors)")
        XCTAssertEqual(r.jsonObjects.last?["played"] as? Int, 3)
    }

    func testEveryArgumentJoinsOneQueueAndAllGoodExitsZero() throws {
        let list = try write("two.pls", "[playlist]\nFile1=\(media("gapless-02.mp4"))\nTitle1=Two\nFile2=\(media("gapless-03.mp4"))\nNumberOfEntries=2\n")
        let run = try reel([media("gapless-00.mp4"), list, media("gapless-01.mp4")])
        XCTAssertEqual(run.named("item").map { $0["item"] as? Int }, [0, 1, 2, 3], run.stderr)
        XCTAssertEqual(run.named("item").map { ($0["uri"] as? String).map { ($0 as NSString).lastPathComponent } },
                       ["gapless-00.mp4", "gapless-02.mp4", "gapless-03.mp4", "gapless-01.mp4"])
        XCTAssertEqual(run.named("item")[1]["title"] as? String, "Two")
        XCTAssertEqual(run.named("end").count, 4)
        XCTAssertEqual(run.named("finished").first?["played"] as? Int, 4)
        XCTAssertEqual(run.named("finished").first?["failed"] as? Int, 0)
        XCTAssertTrue(run.named("error").isEmpty)
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    func testMalformedPlaylistReportsTheLineAndTheRestPlays() throws {
        let list = try write("bad.m3u", "#EXTM3U\n#EXTINF:abc,Oops\n\(media("gapless-04.mp4"))\n#EXTREEL:nonsense\n\(media("gapless-05.mp4"))\n")
        let run = try reel([list])
        XCTAssertEqual(run.named("item").count, 2, run.stderr)
        let playlistErrors = run.named("error").filter { $0["item"] is NSNull }
        let messages = playlistErrors.compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
        XCTAssertEqual(messages, ["bad.m3u: line 2: #EXTINF duration “abc” is not a number", "bad.m3u: line 4: #EXTREEL needs name=value; ignored"])
        XCTAssertEqual(playlistErrors.compactMap { ($0["error"] as? [String: Any])?["code"] as? String }, ["invalid-playlist", "invalid-playlist"])
        XCTAssertEqual(run.named("finished").first?["played"] as? Int, 2)
        XCTAssertEqual(run.status, 1, "a playlist problem is not a clean run")
    }

    func testStartShuffleAndSavePlaylist() throws {
        let inputs = (0..<5).map { media(String(format: "gapless-%02d.mp4", $0)) }
        let saved = dir.appendingPathComponent("order.m3u8").path
        let run = try reel(["--shuffle", "--start=2", "--save-playlist", saved] + inputs)
        XCTAssertEqual(run.status, 0, run.stderr)
        let played = run.named("item").compactMap { $0["uri"] as? String }.map { URL(string: $0)!.path }
        XCTAssertEqual(run.named("item").map { $0["item"] as? Int }, [0, 1, 2, 3, 4], "indices are positions in the shuffled queue")
        XCTAssertEqual(played.first, inputs[2], "--start picks the first item, then the rest is shuffled")
        XCTAssertEqual(Set(played), Set(inputs), "every item once")
        // The saved playlist holds the shuffled order that was played.
        let reread = PlaylistParser.load(file: URL(fileURLWithPath: saved))
        XCTAssertEqual(reread.items.map { URL(string: $0.uri)!.path }, played)
    }

    func testStartIndexWithoutShuffleAndLoopValidation() throws {
        let inputs = (0..<3).map { media(String(format: "gapless-%02d.mp4", $0)) }
        let run = try reel(["--start=1"] + inputs)
        XCTAssertEqual(run.named("item").map { $0["item"] as? Int }, [1, 2], run.stderr)
        // Issue 56: the status says what `finished` says (played 2, failed 0): an item the run was
        // not asked to reach is no failure (it was 1, "item 0 never played").
        XCTAssertEqual(run.status, 0, "nothing failed")
        let bad = try reel(["--start=9"] + inputs)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--start=9"), bad.stderr)
        let badLoop = try reel(["--loop=sometimes"] + inputs)
        XCTAssertNotEqual(badLoop.status, 0)
    }

    /// `--loop=all` goes round the queue, `--loop=one` repeats the item; neither ends by itself,
    /// so the run is watched until the pattern shows and then stopped (SIGTERM, a clean quit).
    func testLoopAllGoesRoundAndLoopOneRepeatsTheItem() throws {
        let inputs = [media("gapless-00.mp4"), media("gapless-01.mp4")]
        for (mode, expected) in [("all", [0, 1, 0, 1, 0]), ("one", [0, 0, 0])] {
            let p = try BackgroundProcess(ProcessRunner.reelExecutable,
                                          ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--loop=\(mode)"] + inputs)
            func played() -> [(index: Int, name: String)] {
                p.stdout.split(separator: "\n").compactMap { line -> (Int, String)? in
                    guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                          o["event"] as? String == "item", let i = o["item"] as? Int, let uri = o["uri"] as? String else { return nil }
                    return (i, MediaLocator.displayName(of: uri))
                }
            }
            let deadline = Date().addingTimeInterval(30)
            while played().count < expected.count && Date() < deadline && p.process.isRunning { usleep(50_000) }
            XCTAssertTrue(p.process.isRunning, "--loop=\(mode) does not end by itself: \(p.stderr)")
            p.process.terminate()
            p.finish(timeout: 10)
            let seen = Array(played().prefix(expected.count))
            XCTAssertEqual(seen.map(\.index), expected, "--loop=\(mode): \(p.stdout)")
            XCTAssertEqual(seen.map(\.name), expected.map { ["gapless-00.mp4", "gapless-01.mp4"][$0] })
            // Only the user ends it (SIGTERM here): the one `finished` says so (issue 11's reasons).
            let finishes = p.stdout.split(separator: "\n").filter { $0.contains("\"event\":\"finished\"") }
            XCTAssertEqual(finishes.count, 1, "--loop=\(mode): \(p.stdout)")
            XCTAssertTrue(finishes.allSatisfy { $0.contains("\"reason\":\"user-exited\"") }, "--loop=\(mode) never finishes the queue by itself")
        }
    }

    /// An HLS playlist is one stream, never a list to expand: a local .m3u8 and an HTTP master
    /// (behind a redirect) are one item each, named by the URL the user gave, and both play.
    func testHLSPlaylistsAreOneStreamEachFromAFileOrAURL() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.serve("/go.m3u8", .redirect(to: server.url("/hls/vod/master.m3u8").absoluteString, status: 302))
        let local = media("hls/vod/lo/index.m3u8")
        let remote = server.url("/go.m3u8").absoluteString
        let run = try reel(["--video-sink", "fakesink sync=false", local, remote])
        XCTAssertEqual(run.status, 0, run.stderr)
        let items = run.named("item")
        XCTAssertEqual(items.map { $0["item"] as? Int }, [0, 1], "two items, not their segments: \(run.stderr)")
        XCTAssertEqual(items.first?["uri"] as? String, URL(fileURLWithPath: local).absoluteString)
        XCTAssertEqual(items.last?["uri"] as? String, remote, "the URL the user gave, not the redirect target")
        XCTAssertEqual(run.named("end").count, 2)
        XCTAssertTrue(server.requests.contains { $0.path.hasSuffix("segment00002.ts") }, "the master played: \(server.requests)")
    }

    func testNetworkPlaylistMayNotPointAtLocalFiles() throws {
        // A real HTTP server on 127.0.0.1 serving a playlist and one clip.
        try FileManager.default.copyItem(atPath: media("gapless-06.mp4"), toPath: dir.appendingPathComponent("six.mp4").path)
        _ = try write("remote.m3u", "#EXTM3U\nsix.mp4\nfile://\(media("gapless-07.mp4"))\n\(media("gapless-08.mp4"))\n")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        let script = """
        import http.server, socketserver, sys, os
        os.chdir(sys.argv[1])
        class Quiet(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *a): pass
        s = socketserver.TCPServer(("127.0.0.1", 0), Quiet)
        print(s.server_address[1], flush=True)
        s.serve_forever()
        """
        server.arguments = ["-c", script, dir.path]
        let out = Pipe()
        server.standardOutput = out
        try server.run()
        defer { server.terminate(); server.waitUntilExit() }
        let portLine = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let port = try XCTUnwrap(Int(portLine), "server port: \(portLine)")
        let run = try reel(["http://127.0.0.1:\(port)/remote.m3u"])
        let items = run.named("item")
        XCTAssertEqual(items.compactMap { $0["uri"] as? String }, ["http://127.0.0.1:\(port)/six.mp4", "http://127.0.0.1:\(port)\(media("gapless-08.mp4"))"],
                       "relative and absolute paths resolve against the server; the file:// entry is dropped: \(run.stderr)")
        let messages = run.named("error").filter { $0["item"] is NSNull }.compactMap { ($0["error"] as? [String: Any])?["message"] as? String }
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("line 3: a playlist fetched over the network may not point at local files") ?? false, "\(messages)")
        // The served clip plays to its end; the absolute path resolved against the server is a 404
        // there, reported on its own item (not on the one before it, whose successor it was).
        XCTAssertEqual(run.named("end").map { $0["item"] as? Int }, [0])
        let itemErrors = run.named("error").filter { !($0["item"] is NSNull) }
        XCTAssertEqual(itemErrors.map { $0["item"] as? Int }, [1])
        XCTAssertEqual(itemErrors.first.flatMap { ($0["error"] as? [String: Any])?["httpStatus"] as? Int }, 404)
        XCTAssertEqual(run.status, 1, run.stderr)
    }
}
