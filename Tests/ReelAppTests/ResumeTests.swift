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

    /// Issue 60: a film comes back as it was left, not only where: the audio and subtitle tracks
    /// chosen, the subtitle delay and the speed (mpv's watch-later keeps them).
    func testTheTracksSubtitleDelayAndSpeedComeBackWithThePlace() throws {
        let film = TestMedia.path("tracks.mkv")
        func session() throws -> (BackgroundProcess, IPCTestClient) {
            let socket = state.appendingPathComponent("ctl-\(UUID().uuidString.prefix(6)).sock").path
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable, ["--headless", "--ipc", socket] + sinks + [film], environment: env)
            return (reel, try XCTUnwrap(IPCTestClient(path: socket), reel.stderr))
        }
        var id = 0
        func ask(_ c: IPCTestClient, _ command: [Any]) -> Any? { id += 1; return c.request(command, id: id)?["data"] }
        func eventually(_ what: String, _ condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(10)
            while !condition() && Date() < deadline { usleep(50_000) }
            XCTAssertTrue(condition(), what)
        }
        let (first, c1) = try session()
        eventually("ready") { (ask(c1, ["get_property", "duration"]) as? Double ?? 0) > 5 }
        _ = ask(c1, ["set_property", "audio-track", 1])
        _ = ask(c1, ["set_property", "subtitle-track", 1])
        _ = ask(c1, ["set_property", "sub-delay", 0.5])
        _ = ask(c1, ["set_property", "pause", true])
        _ = ask(c1, ["set_property", "speed", 1.5])
        _ = ask(c1, ["seek", 2.5, "absolute"])
        eventually("chosen") { ask(c1, ["get_property", "audio-track"]) as? Int == 1 && ask(c1, ["get_property", "subtitle-track"]) as? Int == 1 }
        _ = ask(c1, ["quit"])
        XCTAssertEqual(first.finish(timeout: 10, dumpStacks: false).status, 0, first.stderr)
        let kept = try XCTUnwrap(book().entry(for: URL(fileURLWithPath: film).absoluteString))
        XCTAssertEqual(kept.settings, ResumeBook.Settings(audioTrack: 1, subtitleTrack: 1, subtitleDelay: 0.5, speed: 1.5))

        let (second, c2) = try session()
        defer { _ = second.finish(timeout: 5, dumpStacks: false) }
        eventually("the audio track it was left with") { ask(c2, ["get_property", "audio-track"]) as? Int == 1 }
        eventually("the subtitle track") { ask(c2, ["get_property", "subtitle-track"]) as? Int == 1 }
        XCTAssertEqual(ask(c2, ["get_property", "sub-delay"]) as? Double, 0.5)
        eventually("the speed") { ask(c2, ["get_property", "speed"]) as? Double == 1.5 }
        XCTAssertEqual(ask(c2, ["get_property", "time-pos"]) as? Double ?? 0, 2.5, accuracy: 1.5)
        _ = ask(c2, ["quit"])
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
