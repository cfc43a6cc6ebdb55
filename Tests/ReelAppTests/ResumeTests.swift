import Foundation
import ReelCore
import ReelTestSupport
import XCTest

/// Resume, through the `reel` binary: quit part-way, open again, the first frame is where it was
/// left; a finished item starts at 0; the state file is private and holds no secret.
final class ResumeTests: XCTestCase {
    private var state: URL!
    private var env: [String: String] { ["XDG_STATE_HOME": state.path] }
    private var resumeFile: URL { state.appendingPathComponent("reel/resume.json") }
    private let sinks = ["--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true"]
    private var colors: String { TestMedia.path("color10s.mp4") }

    override func setUp() { state = TestMedia.temporaryDirectory("reel-resume") }
    override func tearDown() { try? FileManager.default.removeItem(at: state) }

    /// Plays `input` over the socket until `seconds`, then quits as a user would.
    private func play(_ input: String, until seconds: Double, extra: [String] = []) throws {
        let socket = state.appendingPathComponent("ctl-\(UUID().uuidString.prefix(6)).sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket] + sinks + extra + [input], environment: env)
        defer { _ = reel.finish(timeout: 10, dumpStacks: false) }
        let client = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        let deadline = Date().addingTimeInterval(30)
        var position = 0.0
        while position < seconds && Date() < deadline {
            position = client.request(["get_property", "position"], id: 1)?["data"] as? Double ?? 0
            if position < seconds { usleep(50_000) }
        }
        XCTAssertGreaterThanOrEqual(position, seconds, reel.stderr)
        XCTAssertEqual(client.request(["quit"], id: 2)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0, reel.stderr)
    }

    /// Opens `input` again and returns its events up to the first progress report (then stops it).
    private func reopen(_ input: String, extra: [String] = []) throws -> [[String: Any]] {
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--events", "--events-progress"] + sinks + extra + [input],
                                         environment: env)
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let deadline = Date().addingTimeInterval(30)
        while !reel.stdout.contains("\"event\":\"progress\"") && Date() < deadline { usleep(50_000) }
        return reel.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    private func book() -> ResumeBook { ResumeBook(json: FileManager.default.contents(atPath: resumeFile.path) ?? Data()) }

    /// Issue 28, item 12: two Reels at once. Each used to rewrite the whole book it had read at
    /// its start, so the one that quit last erased the other's place. Now each change is merged
    /// into the book on disk under a lock: both places are kept.
    func testTwoInstancesKeepEachOthersPlaces() throws {
        let other = TestMedia.path("demo-smpte.mp4")
        func start(_ input: String) throws -> (BackgroundProcess, IPCTestClient) {
            let socket = state.appendingPathComponent("ctl-\(UUID().uuidString.prefix(6)).sock").path
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket] + sinks + [input], environment: env)
            return (reel, try XCTUnwrap(IPCTestClient(path: socket), reel.stderr))
        }
        func wait(_ client: IPCTestClient, past seconds: Double) {
            let deadline = Date().addingTimeInterval(30)
            while (client.request(["get_property", "position"], id: 1)?["data"] as? Double ?? 0) < seconds && Date() < deadline { usleep(50_000) }
        }
        let (a, ca) = try start(colors)
        let (b, cb) = try start(other)
        wait(ca, past: 3)
        wait(cb, past: 2)
        XCTAssertEqual(cb.request(["quit"], id: 2)?["error"] as? String, "success")
        XCTAssertEqual(b.finish(timeout: 10, dumpStacks: false).status, 0, b.stderr)
        XCTAssertEqual(ca.request(["quit"], id: 2)?["error"] as? String, "success")
        XCTAssertEqual(a.finish(timeout: 10, dumpStacks: false).status, 0, a.stderr)
        XCTAssertNotNil(book().entry(for: URL(fileURLWithPath: colors).absoluteString), "the last to quit kept its place")
        XCTAssertNotNil(book().entry(for: URL(fileURLWithPath: other).absoluteString), "and the first one's place is still there")
    }

    /// Issue 60: a film comes back as it was left, not only where (mpv's watch-later): the French
    /// audio, subtitles off, the audio delay +0.3 s, the subtitle delay, the speed 1.5, the volume
    /// changed and the A-B loop; the tracks kept by language and title.
    func testTheTracksDelaysSpeedVolumeAndLoopComeBackWithThePlace() throws {
        let film = TestMedia.path("tracks.mkv")
        let (first, c1) = try session(film)
        eventually("ready") { (ask(c1, ["get_property", "duration"]) as? Double ?? 0) > 5 }
        let french = try XCTUnwrap((ask(c1, ["get_property", "track-list"]) as? [[String: Any]] ?? [])
            .filter { $0["type"] as? String == "audio" }.firstIndex { $0["title"] as? String == "French" },
                                   "a French track: \(ask(c1, ["get_property", "track-list"]) ?? "nil")")
        _ = ask(c1, ["set_property", "audio-track", french])
        _ = ask(c1, ["set_property", "subtitle-track", -1])
        // The tracks first (their select-streams answered), then the rest and the seek.
        eventually("chosen") { ask(c1, ["get_property", "audio-track"]) as? Int == french && ask(c1, ["get_property", "subtitle-track"]) is NSNull }
        _ = ask(c1, ["set_property", "audio-delay", 0.3])
        _ = ask(c1, ["set_property", "sub-delay", 0.5])
        _ = ask(c1, ["set_property", "volume", 40])
        _ = ask(c1, ["set_property", "ab-loop-a", 1])
        _ = ask(c1, ["set_property", "ab-loop-b", 5])
        _ = ask(c1, ["set_property", "pause", true])
        _ = ask(c1, ["set_property", "speed", 1.5])
        _ = ask(c1, ["seek", 2.5, "absolute"])
        eventually("still chosen after the seek") { ask(c1, ["get_property", "audio-track"]) as? Int == french && ask(c1, ["get_property", "subtitle-track"]) is NSNull }
        _ = ask(c1, ["quit"])
        XCTAssertEqual(first.finish(timeout: 10, dumpStacks: false).status, 0, first.stderr)
        let kept = try XCTUnwrap(book().entry(for: URL(fileURLWithPath: film).absoluteString)).settings
        XCTAssertEqual(kept.audioTrack, french)
        XCTAssertEqual(kept.audioTitle, "French")
        XCTAssertNotNil(kept.audioLanguage)
        XCTAssertEqual(kept.subtitleTrack, -1)
        XCTAssertEqual(kept.audioDelay, 0.3)
        XCTAssertEqual(kept.subtitleDelay, 0.5)
        XCTAssertEqual(kept.speed, 1.5)
        XCTAssertEqual(kept.volume ?? 0, 0.4, accuracy: 0.001)
        XCTAssertEqual(kept.abLoop, ABLoop(a: 1, b: 5))

        let (second, c2) = try session(film)
        defer { _ = second.finish(timeout: 5, dumpStacks: false) }
        eventually("the audio track it was left with") { ask(c2, ["get_property", "audio-track"]) as? Int == french }
        eventually("subtitles off") { ask(c2, ["get_property", "subtitle-track"]) is NSNull }
        XCTAssertEqual(ask(c2, ["get_property", "audio-delay"]) as? Double, 0.3)
        XCTAssertEqual(ask(c2, ["get_property", "sub-delay"]) as? Double, 0.5)
        eventually("the speed") { ask(c2, ["get_property", "speed"]) as? Double == 1.5 }
        eventually("the volume") { abs((ask(c2, ["get_property", "volume"]) as? Double ?? 0) - 40) < 0.1 }
        XCTAssertEqual(ask(c2, ["get_property", "ab-loop-a"]) as? Double, 1)
        XCTAssertEqual(ask(c2, ["get_property", "ab-loop-b"]) as? Double, 5)
        XCTAssertTrue((0.9...5.1).contains(ask(c2, ["get_property", "time-pos"]) as? Double ?? -1), "from 2.5 s, within the loop")
        _ = ask(c2, ["quit"])
    }

    /// The audio kept is found by its language and title, not its index: a book that says
    /// "French" at index 0 (the file remuxed since, its tracks in another order) plays the French.
    func testAKeptTrackIsFoundByItsLanguageAndTitle() throws {
        let film = TestMedia.path("tracks.mkv")
        let key = URL(fileURLWithPath: film).absoluteString
        try FileManager.default.createDirectory(at: resumeFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"version":1,"entries":[{"key":"\#(key)","position":2,"duration":6,"saved":1,"audio":0,"audioLang":"fre","audioTitle":"French"}]}"#.utf8)
            .write(to: resumeFile)
        let (reel, c) = try session(film)
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        eventually("the French track plays") {
            let tracks = (ask(c, ["get_property", "track-list"]) as? [[String: Any]] ?? []).filter { $0["type"] as? String == "audio" }
            return tracks.first { $0["selected"] as? Bool == true }?["title"] as? String == "French"
        }
        _ = ask(c, ["quit"])
    }

    /// The right-click menu's "Forget this file" (with the pointer and the keys, over the socket):
    /// the item left at 4 s is not kept, and the menu item says what it forgets to a screen reader.
    func testForgetThisFileFromTheMenuKeepsNothingOfIt() throws {
        let socket = state.appendingPathComponent("ui.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--ipc", socket, "--no-mpris", "--autoload=no", "--geometry", "800x450",
                                                                       "--audio-sink", "fakesink sync=true", colors], environment: env.merging(["GTK_CSD": "0"]) { $1 })
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket, timeout: 20), reel.stderr)
        eventually("playing") { (ask(c, ["get_property", "time-pos"]) as? Double ?? 0) > 0.2 }
        _ = ask(c, ["seek", 4, "absolute"])
        eventually("at 4 s") { (ask(c, ["get_property", "time-pos"]) as? Double ?? 0) >= 4 }
        let widgets = ((ask(c, ["window-tree"]) as? [[String: Any]])?.first?["widgets"] as? [[String: Any]]) ?? []
        let video = try XCTUnwrap(widgets.first { $0["name"] as? String == "Video" })
        XCTAssertEqual(c.request(["mouse", (video["width"] as? Int ?? 0) / 2, (video["height"] as? Int ?? 0) / 2, 2], id: 900)?["error"] as? String, "success")
        var menu: [[String: Any]] = []
        eventually("the menu is open") {
            menu = ((ask(c, ["window-tree"]) as? [[String: Any]]) ?? []).filter { $0["main"] as? Bool == false }.flatMap { $0["widgets"] as? [[String: Any]] ?? [] }
            return menu.contains { $0["id"] as? String == "reel-forget" }
        }
        XCTAssertEqual(menu.first { $0["id"] as? String == "reel-forget" }?["name"] as? String, "Forget this file (its place, tracks and speed)")
        // The last item of the menu: Up from none, then Enter.
        XCTAssertEqual(c.request(["keypress", "UP"], id: 901)?["error"] as? String, "success")
        XCTAssertEqual(c.request(["keypress", "ENTER"], id: 902)?["error"] as? String, "success")
        eventually("the menu closed") { ((ask(c, ["window-tree"]) as? [[String: Any]]) ?? []).count == 1 }
        XCTAssertEqual(c.request(["quit"], id: 903)?["error"] as? String, "success")
        XCTAssertEqual(reel.finish(timeout: 10, dumpStacks: false).status, 0)
        XCTAssertNil(book().entry(for: URL(fileURLWithPath: colors).absoluteString), "forgotten, and not kept again at the quit")
    }

    private func session(_ film: String) throws -> (BackgroundProcess, IPCTestClient) {
        let socket = state.appendingPathComponent("ctl-\(UUID().uuidString.prefix(6)).sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket] + sinks + [film], environment: env)
        return (reel, try XCTUnwrap(IPCTestClient(path: socket), reel.stderr))
    }

    private var requestID = 0
    private func ask(_ c: IPCTestClient, _ command: [Any]) -> Any? { requestID += 1; return c.request(command, id: requestID)?["data"] }

    private func eventually(_ what: String, _ condition: () -> Bool) {
        let deadline = Date().addingTimeInterval(10)
        while !condition() && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(condition(), what)
    }

    func testQuitAtFourSecondsThenReopenStartsAtFourWithTheResumedEvent() throws {
        try play(colors, until: 4)
        let entry = try XCTUnwrap(book().entry(for: URL(fileURLWithPath: colors).absoluteString), "kept under the file's URI")
        XCTAssertEqual(entry.position, 4, accuracy: 0.5)
        XCTAssertEqual(entry.duration, 10, accuracy: 0.2)
        let fileMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: resumeFile.path)[.posixPermissions] as? Int)
        XCTAssertEqual(fileMode & 0o777, 0o600, "the state file is the user's alone")
        let dirMode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: resumeFile.deletingLastPathComponent().path)[.posixPermissions] as? Int)
        XCTAssertEqual(dirMode & 0o777, 0o700)

        let events = try reopen(colors)
        let names = events.compactMap { $0["event"] as? String }
        let resumed = try XCTUnwrap(events.first { $0["event"] as? String == "resumed" }, "\(names)")
        XCTAssertEqual(resumed["position"] as? Double ?? -1, entry.position, accuracy: 0.01)
        XCTAssertLessThan(names.firstIndex(of: "item") ?? 99, names.firstIndex(of: "resumed") ?? -1, "the item, then where it resumes")
        let first = try XCTUnwrap(events.first { $0["event"] as? String == "progress" })
        XCTAssertEqual(first["position"] as? Double ?? -1, 4, accuracy: 0.5, "the first frame is at the place left: \(first)")
    }

    func testAFinishedItemStartsAtZero() throws {
        try play(colors, until: 4)
        XCTAssertNotNil(book().entry(for: URL(fileURLWithPath: colors).absoluteString))
        // Played on to its end (it resumes at 4 s and the headless run ends with it).
        let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless"] + sinks.map { $0.replacingOccurrences(of: "sync=true", with: "sync=false") } + [colors],
                                  timeout: 60, environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertNil(book().entry(for: URL(fileURLWithPath: colors).absoluteString), "played to its end: forgotten")
        let events = try reopen(colors)
        XCTAssertFalse(events.contains { $0["event"] as? String == "resumed" })
        let first = try XCTUnwrap(events.first { $0["event"] as? String == "progress" })
        XCTAssertLessThan(first["position"] as? Double ?? 99, 0.5)
    }

    func testNoResumeStartsAtZeroAndLeavesTheBookAlone() throws {
        try play(colors, until: 3)
        let before = try XCTUnwrap(FileManager.default.contents(atPath: resumeFile.path))
        for flag in ["--no-resume", "--resume=no"] {
            let events = try reopen(colors, extra: [flag])
            XCTAssertFalse(events.contains { $0["event"] as? String == "resumed" }, flag)
            let first = try XCTUnwrap(events.first { $0["event"] as? String == "progress" }, flag)
            XCTAssertLessThan(first["position"] as? Double ?? 99, 0.5, flag)
        }
        XCTAssertEqual(FileManager.default.contents(atPath: resumeFile.path), before)
        let bad = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--resume=maybe", colors], timeout: 20, environment: env)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--resume"), bad.stderr)
    }

    func testATokenisedURLResumesWithANewTokenAndTheFileHoldsNoSecret() throws {
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/v/colors.mp4", .file(URL(fileURLWithPath: colors), contentType: "video/mp4"))
        let bearer = "bearer-secret-5e5e5e5e"
        let first = server.url("/v/colors.mp4").absoluteString + "?token=query-secret-7a7a7a7a&id=7"
        try play(first, until: 2, extra: ["--header", "Authorization: Bearer \(bearer)"])
        let text = try String(contentsOf: resumeFile, encoding: .utf8)
        XCTAssertFalse(text.contains("query-secret-7a7a7a7a"), text)
        XCTAssertFalse(text.contains(bearer), text)
        XCTAssertTrue(text.contains("id=7"), "the parameter that names the item stays: \(text)")
        // The token rotated: the same item, so it resumes.
        let second = server.url("/v/colors.mp4").absoluteString + "?token=query-secret-8b8b8b8b&id=7"
        let events = try reopen(second, extra: ["--header", "Authorization: Bearer \(bearer)"])
        let resumed = try XCTUnwrap(events.first { $0["event"] as? String == "resumed" }, "\(events)")
        XCTAssertEqual(resumed["position"] as? Double ?? -1, 2, accuracy: 0.5)
        // Another item (another id) does not.
        let other = try reopen(server.url("/v/colors.mp4").absoluteString + "?id=8")
        XCTAssertFalse(other.contains { $0["event"] as? String == "resumed" })
    }
}
