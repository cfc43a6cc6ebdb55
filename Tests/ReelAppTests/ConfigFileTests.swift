import Foundation
import ReelTestSupport
import XCTest
@testable import ReelApp

/// reel.conf, mpv.conf's counterpart: every long option as name=value, the command line after it
/// (so it wins), bad lines said with their file and line and never their value.
final class ConfigFileTests: XCTestCase {
    func testLinesBecomeOptionsAndBadOnesAreSaidWithoutTheirValue() {
        let text = """
        # my defaults
        volume=10
        mute
        hwdec = no   # software only
        resume=no
        pause=no
        events=yes
        bogus=3
        volume=s3cret-token
        [fast]
        alang="en,fr"
        """
        let r = ConfigFile.options(in: text, name: "reel.conf")
        XCTAssertEqual(r.arguments, ["--volume=10", "--mute", "--hwdec=no", "--resume=no", "--events", "--alang=en,fr"])
        XCTAssertEqual(r.problems.map { $0.prefix(13) }, ["reel.conf:8: ", "reel.conf:9: ", "reel.conf:10:"])
        XCTAssertFalse(r.problems.joined().contains("s3cret"), "a value is never said: \(r.problems)")
    }

    /// Issue 56: each line cost a parse of the command line (~22 ms: 5,000 lines held the start
    /// 116 s). One parse checks them all; a refused group is split to find its bad lines; past
    /// `maxOptionLines` the rest is said and left out. From outside, reel starts and plays.
    func testAHugeFileIsReadInOnePass() throws {
        var lines = (0..<5_000).map { "volume=\(10 + $0 % 50)" }
        lines[9] = "bogus=1"
        lines[700] = "pause=no"
        let r = ConfigFile.options(in: lines.joined(separator: "\n"), name: "reel.conf")
        XCTAssertEqual(r.arguments.count, ConfigFile.maxOptionLines - 2, "every good line up to the cap, `pause=no` adding nothing")
        XCTAssertEqual(r.problems.count, 2, "\(r.problems)")
        XCTAssertTrue(r.problems[0].hasPrefix("reel.conf:10: "), r.problems[0])
        XCTAssertTrue(r.problems[1].hasPrefix("reel.conf:1001: ") && r.problems[1].contains("1000"), r.problems[1])

        let dir = TestMedia.temporaryDirectory("reel-conf-huge")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("reel"), withIntermediateDirectories: true)
        try (lines.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("reel/reel.conf"), atomically: true, encoding: .utf8)
        let run = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--no-resume", "--audio-sink", "fakesink", TestMedia.path("clip2s.mp4")],
                                    timeout: 30, environment: ["XDG_CONFIG_HOME": dir.path])
        XCTAssertFalse(run.timedOut, "reel started (the file was read in one pass)")
        XCTAssertEqual(run.status, 0, run.stderr.suffix(600).description)
        XCTAssertEqual(run.jsonObjects.last { $0["event"] as? String == "volume" }?["volume"] as? Double, Double(10 + 999 % 50) / 100,
                       "the last line read wins")
    }

    func testTheCommandLineComesAfterTheFileAndSubcommandsReadNone() throws {
        let dir = TestMedia.temporaryDirectory("reel-conf")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("reel"), withIntermediateDirectories: true)
        try "volume=10\n".write(to: dir.appendingPathComponent("reel/reel.conf"), atomically: true, encoding: .utf8)
        let env = ["XDG_CONFIG_HOME": dir.path]
        XCTAssertEqual(ConfigFile.apply(to: ["--volume", "50", "a.mp4"], environment: env).arguments, ["--volume=10", "--volume", "50", "a.mp4"])
        XCTAssertEqual(ConfigFile.apply(to: ["--no-config", "a.mp4"], environment: env).arguments, ["a.mp4"])
        XCTAssertEqual(ConfigFile.apply(to: ["check", "a.mp4"], environment: env).arguments, ["check", "a.mp4"])
        let other = dir.appendingPathComponent("other.conf")
        try "mute\n".write(to: other, atomically: true, encoding: .utf8)
        XCTAssertEqual(ConfigFile.apply(to: ["--config", other.path, "a.mp4"], environment: env).arguments, ["--mute", "a.mp4"])
        XCTAssertEqual(ConfigFile.apply(to: ["--config=/nonexistent/x.conf", "a.mp4"], environment: env).problems.count, 1)
        XCTAssertEqual(ConfigFile.apply(to: ["a.mp4"], environment: ["XDG_CONFIG_HOME": "/nonexistent"]), .init(arguments: ["a.mp4"]))
    }

    func testReelPlaysWithTheUsersDefaultsFromOutside() throws {
        let dir = TestMedia.temporaryDirectory("reel-conf-run")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("reel"), withIntermediateDirectories: true)
        try "volume=10\nmute\nvolume=oops\n".write(to: dir.appendingPathComponent("reel/reel.conf"), atomically: true, encoding: .utf8)
        func run(_ extra: [String]) -> (String, [String: Any]?) {
            let r = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--events", "--no-resume", "--audio-sink", "fakesink"] + extra + [TestMedia.path("clip2s.mp4")],
                                      timeout: 30, environment: ["XDG_CONFIG_HOME": dir.path])
            return (r.stderr, r.jsonObjects.last { $0["event"] as? String == "volume" })
        }
        let (stderr, volume) = run([])
        XCTAssertEqual(volume?["volume"] as? Double, 0.1, "\(String(describing: volume))")
        XCTAssertEqual(volume?["muted"] as? Bool, true)
        XCTAssertTrue(stderr.contains("reel.conf:3: --volume=… is not"), stderr)
        XCTAssertEqual(run(["--volume", "50"]).1?["volume"] as? Double, 0.5, "the command line wins")
        XCTAssertEqual(run(["--no-config"]).1?["muted"] as? Bool ?? false, false, "--no-config: none of it")
    }
}
