import Foundation
import ReelTestSupport
import XCTest

/// HLS alternate audio as packagers write it (hls/ffmpeg/langs: one video variant and three
/// audio renditions in one group, two of them English): ffmpeg's own master and one written as
/// Apple's authoring spec does (NAMEs, BCP 47 LANGUAGE tags such as "en-US" and "es-419").
/// Played by the real binary from a plain HTTP server on 127.0.0.1; which audio plays is read
/// from the server's request log. Before the fix, hlsdemux2 folded the two English renditions
/// into one stream and fetched the *commentary* (the last listed), with one audio track listed;
/// "en-US" and "es-419" were no language at all, so `--alang es` found nothing.
final class AudioRenditionTests: XCTestCase {
    struct Run: CustomStringConvertible {
        var status: Int32
        var events: [[String: Any]]
        var requests: [HTTPFixtureServer.RecordedRequest]
        var stderr: String

        /// The rendition folders ("main", "commentary", "spanish") whose audio segments were asked for.
        var audioFetched: Set<String> {
            Set(requests.filter { $0.path.hasSuffix(".ts") }.compactMap { r in
                r.path.split(separator: "/").dropFirst().first.map(String.init).flatMap { $0 == "video" ? nil : $0 }
            })
        }
        var tracks: [[String: Any]] {
            (events.last { $0["event"] as? String == "tracks" }?["tracks"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "audio" }
        }
        var description: String { "status \(status), audio fetched \(audioFetched), tracks \(tracks), stderr: \(stderr.suffix(400))" }
    }

    private func play(_ master: String, _ arguments: [String] = []) throws -> Run {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/ffmpeg/langs"), at: "/s")
        let result = ProcessRunner.run(ProcessRunner.reelExecutable,
                                       ["--headless", "--events", "--no-resume", "--audio-sink", "fakesink sync=false",
                                        "--video-sink", "fakesink sync=false"] + arguments + [server.url("/s/\(master)").absoluteString],
                                       timeout: 60)
        let events = result.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        return Run(status: result.status, events: events, requests: server.requests, stderr: result.stderr)
    }

    /// Played with no choice: the DEFAULT=YES rendition is the audio fetched (not the last one of
    /// its language), and every rendition is an audio track, by NAME and language.
    private func assertDefaultPlays(_ master: String, titles: [String], languages: [String], line: UInt = #line) throws {
        let run = try play(master)
        XCTAssertEqual(run.status, 0, "\(run)", line: line)
        XCTAssertEqual(run.audioFetched, ["main"], "the DEFAULT=YES rendition, not the last English one: \(run)", line: line)
        XCTAssertEqual(run.tracks.map { $0["title"] as? String }, titles, "\(run)", line: line)
        XCTAssertEqual(run.tracks.map { $0["language"] as? String }, languages, "\(run)", line: line)
        XCTAssertEqual(run.tracks.map { $0["selected"] as? Bool }, [true, false, false], "\(run)", line: line)
    }

    /// ffmpeg's master (NAME="audio_0", "audio_1", "audio_2"; LANGUAGE en, en, es): the DEFAULT
    /// rendition is the one fetched, and the three are listed, by NAME and language.
    func testTheDefaultRenditionPlaysAndEachIsListedInFfmpegsMaster() throws {
        try assertDefaultPlays("master.m3u8", titles: ["audio_0", "audio_1", "audio_2"], languages: ["en", "en", "es"])
    }

    /// The spec-style master: BCP 47 languages are languages (`--alang es` finds "es-419" and the
    /// server is asked for the Spanish audio), and the NAMEs are the tracks' titles.
    func testBCP47LanguagesAreChosenByAlangInASpecMaster() throws {
        try assertDefaultPlays("spec.m3u8", titles: ["English", "English (Commentary)", "Español"], languages: ["en-US", "en-US", "es-419"])
        let spanish = try play("spec.m3u8", ["--alang", "es"])
        XCTAssertEqual(spanish.status, 0, "\(spanish)")
        XCTAssertTrue(spanish.audioFetched.contains("spanish"), "\(spanish)")
        XCTAssertFalse(spanish.audioFetched.contains("commentary"), "\(spanish)")
        XCTAssertEqual(spanish.tracks.first { $0["selected"] as? Bool == true }?["title"] as? String, "Español", "\(spanish)")
    }

    /// The commentary chosen over the socket while the main audio plays: the server is then asked
    /// for the commentary's segments (it could not be chosen at all: it was not a track).
    func testTheSecondEnglishRenditionCanBeChosenWhilePlaying() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/ffmpeg/langs"), at: "/s", bytesPerSecond: 200_000)
        let dir = TestMedia.temporaryDirectory("reel-audio-renditions")
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = dir.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--ipc", socket, "--no-resume", "--audio-sink", "fakesink sync=true",
                                          "--video-sink", "fakesink sync=true", server.url("/s/spec.m3u8").absoluteString])
        defer { _ = reel.finish(timeout: 5, dumpStacks: false) }
        let c = try XCTUnwrap(IPCTestClient(path: socket), reel.stderr)
        XCTAssertNotNil(c.waitForEvent { $0["event"] as? String == "tick" && ($0["position"] as? Double ?? 0) >= 1 }, reel.stderr)
        let tracks = try XCTUnwrap(c.request(["get_property", "tracks"], id: 1)?["data"] as? [[String: Any]])
        let audio = tracks.filter { $0["type"] as? String == "audio" }
        XCTAssertEqual(audio.map { $0["title"] as? String }, ["English", "English (Commentary)", "Español"])
        let chosen = Date()
        XCTAssertEqual(c.request(["set_property", "audio-track", 1], id: 2)?["error"] as? String, "success")
        let deadline = Date().addingTimeInterval(15)
        func commentary() -> Int { server.requests.filter { $0.path.hasPrefix("/s/commentary/") && $0.path.hasSuffix(".ts") && $0.time > chosen }.count }
        while commentary() < 1 && Date() < deadline { usleep(100_000) }
        XCTAssertGreaterThanOrEqual(commentary(), 1, "the commentary's segments are fetched: \(server.requests.map(\.path))")
        XCTAssertEqual(c.request(["get_property", "audio-track"], id: 3)?["data"] as? Int, 1)
    }
}
