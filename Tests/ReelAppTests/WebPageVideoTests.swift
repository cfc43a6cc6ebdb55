import Foundation
import ReelTestSupport
import XCTest

/// Issue 61: a web page that holds a video plays through yt-dlp (a real one, from PyPI into the
/// build's folder by `make setup`), as mpv's ytdl_hook does: yt-dlp's generic extractor reads a
/// page on 127.0.0.1 (an HTML5 `<video>` with an HLS `<source>`, and a JSON-LD `VideoObject`),
/// and a server that answers 401 without the `Sec-Fetch-Mode` header yt-dlp reports gets it on
/// every request of the stream (its log says). Without yt-dlp the error says what to install; a
/// page with no video is a clear error; the queue goes on.
final class WebPageVideoTests: XCTestCase {
    private static let python = TestMedia.packageRoot.appendingPathComponent(".build/python")

    /// A folder with a `yt-dlp` that runs the build's copy (as an installed one would be on PATH).
    private func ytdlFolder(_ dir: URL) throws -> String {
        let module = Self.python.appendingPathComponent("yt_dlp/__main__.py").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: module), "yt-dlp is installed into .build/python by `make setup` (Resources/scripts/setup-python.sh)")
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let wrapper = bin.appendingPathComponent("yt-dlp")
        try "#!/bin/sh\nPYTHONPATH='\(Self.python.path)' exec python3 -m yt_dlp \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        return bin.path
    }

    /// The pages: an HTML5 `<video>` with an HLS `<source>` and a subtitle `<track>` (a JSON-LD
    /// block beside it, which yt-dlp's html5 reading wins over), a JSON-LD `VideoObject` alone
    /// (with two `Clip` parts, which yt-dlp gives as chapters), and a page with no video.
    private enum Page { case html5, jsonLD, none }

    private func page(_ server: HTTPFixtureServer, _ kind: Page) -> Data {
        let source = server.url("/vod/master.m3u8").absoluteString
        let ld = "<script type=\"application/ld+json\">{\"@context\":\"https://schema.org\",\"@type\":\"VideoObject\",\"name\":\"Harbour at dawn\",\"contentUrl\":\"\(source)\",\"uploadDate\":\"2026-11-30\",\"duration\":\"PT6S\",\"hasPart\":[{\"@type\":\"Clip\",\"name\":\"Boats\",\"startOffset\":0,\"endOffset\":3},{\"@type\":\"Clip\",\"name\":\"Gulls\",\"startOffset\":3,\"endOffset\":6}]}</script>"
        let (head, body): (String, String) = switch kind {
        case .html5: (ld, "<video controls width=\"640\"><source src=\"/vod/master.m3u8\" type=\"application/x-mpegURL\"><track kind=\"subtitles\" src=\"/subs/en.vtt\" srclang=\"en\" label=\"English\"></video>")
        case .jsonLD: (ld, "<p>The harbour at dawn.</p>")
        case .none: ("", "<p>Nothing to watch here.</p>")
        }
        return Data("<!DOCTYPE html>\n<html><head><title>Harbour at dawn</title>\(head)</head><body>\(body)</body></html>\n".utf8)
    }

    private func events(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func reel(_ inputs: [String], path: String, extra: [String] = []) -> ProcessRunner.Result {
        ProcessRunner.run(ProcessRunner.reelExecutable,
                          ["--headless", "--events", "--exit-at-end", "--no-resume", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false"] + extra + inputs,
                          timeout: 90, environment: ["PATH": path, "REEL_DEBUG": "ytdl"])
    }

    func testAPageWithAnHLSVideoPlaysWithYtDlpsHeaderOnEveryRequestOfTheStream() throws {
        let dir = TestMedia.temporaryDirectory("reel-ytdl")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = try ytdlFolder(dir)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/watch", .data(page(server, .html5), contentType: "text/html; charset=utf-8"))
        server.serve("/ld", .data(page(server, .jsonLD), contentType: "text/html; charset=utf-8"))
        server.serve("/subs/en.vtt", .data(Data("WEBVTT\n\n00:00.500 --> 00:05.000\nGulls over the harbour\n".utf8), contentType: "text/vtt"))
        server.serveDirectory(TestMedia.url("hls/vod"), at: "/vod")
        server.requireHeader("Sec-Fetch-Mode", "navigate")  // what yt-dlp reports in http_headers
        for path in ["/watch", "/ld"] { server.exemptFromAuth(path) }  // the page itself opens for anyone: Reel reads it first

        for (path, kind) in [("/watch", Page.html5), ("/ld", Page.jsonLD)] {
            server.clearRequests()
            let run = reel([server.url(path).absoluteString + "?v=harbour"], path: "\(bin):/usr/bin:/bin")
            XCTAssertFalse(run.timedOut, "\(path): \(run.stderr.suffix(1500))")
            XCTAssertEqual(run.status, 0, "\(path): the page's video played to its end: \(run.stderr.suffix(1500))")
            let all = events(run.stdout)
            let items = all.filter { $0["event"] as? String == "item" }
            XCTAssertEqual(items.last?["uri"] as? String, server.url("/vod/hi/index.m3u8").absoluteString, "\(path): yt-dlp's choice, the best HLS variant")
            XCTAssertTrue((items.last?["title"] as? String)?.hasPrefix("Harbour at dawn") == true, "\(path): the page's title, as yt-dlp gives it: \(items.last ?? [:])")
            XCTAssertTrue(all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == 0 }, "\(path): played to its end: \(run.stdout.suffix(800))")
            let finished = all.first { $0["event"] as? String == "finished" }
            XCTAssertEqual(finished?["played"] as? Int, 1, path)
            XCTAssertEqual(finished?["failed"] as? Int, 0, path)

            // The server's log: segments were fetched, and every request of the stream had the header.
            let stream = server.requests.filter { $0.path.hasPrefix("/vod/") }
            XCTAssertGreaterThanOrEqual(stream.filter { $0.path.hasSuffix(".ts") }.count, 3, "\(path): \(stream)")
            XCTAssertEqual(stream.filter { $0.header("Sec-Fetch-Mode") != "navigate" || $0.status != 200 }.map(\.description), [],
                           "\(path): every request of the stream carries yt-dlp's header and is answered")
            XCTAssertTrue(run.stderr.contains("reel[ytdl]"), "yt-dlp's run is in REEL_DEBUG=ytdl")
            switch kind {
            case .html5:
                // The page's subtitle track, fetched with the header and listed as the item's own.
                XCTAssertEqual(server.requests.filter { $0.path == "/subs/en.vtt" }.map(\.status), [200], "the subtitles were fetched once, with the header")
                let tracks = all.last { $0["event"] as? String == "tracks" }?["tracks"] as? [[String: Any]] ?? []
                XCTAssertTrue(tracks.contains { $0["type"] as? String == "subtitle" && $0["external"] as? Bool == true && $0["language"] as? String == "en" },
                              "the page's English subtitles are a track: \(tracks)")
            case .jsonLD:
                let chapters = all.last { $0["event"] as? String == "chapters" }?["chapters"] as? [[String: Any]] ?? []
                XCTAssertEqual(chapters.map { $0["title"] as? String }, ["Boats", "Gulls"], "the page's clips as chapters: \(all.filter { $0["event"] as? String == "chapters" })")
            case .none:
                break
            }
        }
    }

    func testWithoutYtDlpTheErrorSaysWhatToInstallAndAPageWithoutAVideoIsAClearError() throws {
        let dir = TestMedia.temporaryDirectory("reel-ytdl-missing")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bin = try ytdlFolder(dir)
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/watch", .data(page(server, .html5), contentType: "text/html; charset=utf-8"))
        server.serve("/about", .data(page(server, .none), contentType: "text/html; charset=utf-8"))
        server.serve("/clip.mp4", .file(TestMedia.url("clip2s.mp4"), contentType: "video/mp4"))
        server.serveDirectory(TestMedia.url("hls/vod"), at: "/vod")
        let clip = server.url("/clip.mp4").absoluteString

        // (page, PATH, extra options) → what the error says; the clip after it plays each time.
        let cases: [(String, String, [String], [String])] = [
            ("/watch", "/usr/bin:/bin", [], ["yt-dlp", "not installed", "install"]),
            ("/about", "\(bin):/usr/bin:/bin", [], ["yt-dlp found no video on the page"]),
            ("/watch", "\(bin):/usr/bin:/bin", ["--ytdl=no"], ["web page"]),
        ]
        for (path, searchPath, extra, says) in cases {
            let run = reel([server.url(path).absoluteString, clip], path: searchPath, extra: extra)
            let name = "\(path) \(extra)"
            XCTAssertFalse(run.timedOut, name)
            XCTAssertEqual(run.status, 1, "\(name): one item failed: \(run.stderr.suffix(800))")
            let all = events(run.stdout)
            let error = all.first { $0["event"] as? String == "error" && $0["item"] as? Int == 0 }?["error"] as? [String: Any]
            XCTAssertEqual(error?["code"] as? String, "unsupported-format", "\(name): \(run.stdout.suffix(1000))")
            for phrase in says { XCTAssertTrue((error?["message"] as? String)?.contains(phrase) == true, "\(name): \(phrase): \(error ?? [:])") }
            XCTAssertTrue(all.contains { $0["event"] as? String == "end" && $0["item"] as? Int == 1 }, "\(name): the clip after it played")
            XCTAssertFalse(all.contains { ($0["tracks"] as? [[String: Any]])?.contains { $0["type"] as? String == "subtitle" } == true }, name)
        }
        XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/vod/") }.count, 0, "no video was played where it should not be")
    }

    /// A separate video and audio, as `-f bv*+ba` gives them for a site that serves them apart:
    /// joined as one item (the audio as playbin3's second source), both through the gateway with
    /// yt-dlp's header. yt-dlp's generic extractor gives no such pair for a page of ours, so a
    /// stand-in prints the document yt-dlp prints for one (its `requested_formats`).
    func testAVideoAndItsAudioApartPlayAsOneItemWithTheHeaderOnBoth() throws {
        let dir = TestMedia.temporaryDirectory("reel-ytdl-pair")
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("v.mp4"), audio = dir.appendingPathComponent("a.m4a")
        for (out, arguments) in [(video, ["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30:duration=4", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]),
                                 (audio, ["-f", "lavfi", "-i", "sine=frequency=440:duration=4", "-c:a", "aac"])] {
            let made = ProcessRunner.run("/usr/bin/ffmpeg", ["-nostdin", "-loglevel", "error", "-y"] + arguments + [out.path], timeout: 60)
            XCTAssertEqual(made.status, 0, made.stderr)
        }
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serve("/watch", .data(page(server, .none), contentType: "text/html; charset=utf-8"))
        server.serve("/v.mp4", .file(video, contentType: "video/mp4"))
        server.serve("/a.m4a", .file(audio, contentType: "audio/mp4"))
        server.requireHeader("Sec-Fetch-Mode", "navigate")
        server.exemptFromAuth("/watch")
        let bin = dir.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let document = """
            {"_type": "video", "id": "pair", "title": "Two parts", "duration": 4, "requested_formats": [
             {"format_id": "0", "url": "\(server.url("/v.mp4").absoluteString)", "vcodec": "avc1.64001e", "acodec": "none", "protocol": "https", "http_headers": {"Sec-Fetch-Mode": "navigate"}},
             {"format_id": "1", "url": "\(server.url("/a.m4a").absoluteString)", "vcodec": "none", "acodec": "mp4a.40.2", "protocol": "https", "http_headers": {"Sec-Fetch-Mode": "navigate"}}]}
            """
        try "#!/bin/sh\ncat <<'JSON'\n\(document)\nJSON\n".write(to: bin.appendingPathComponent("yt-dlp"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("yt-dlp").path)
        let sound = dir.appendingPathComponent("sound.raw")
        let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                    ["--headless", "--events", "--exit-at-end", "--no-resume", "--no-config", "--video-sink", "fakesink sync=false",
                                     "--audio-sink", "audioconvert ! audio/x-raw,format=S16LE,channels=1,rate=48000 ! filesink location=\(sound.path)",
                                     server.url("/watch").absoluteString], timeout: 60, environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
        XCTAssertEqual(run.status, 0, run.stderr.suffix(1200).description)
        let all = events(run.stdout)
        let info = all.last { $0["event"] as? String == "media-info" }
        XCTAssertEqual(info?["width"] as? Int, 320, "the video part: \(info ?? [:])")
        XCTAssertNotNil(info?["audioCodec"] as? String, "and the audio part, as one item: \(info ?? [:])")
        XCTAssertEqual(all.first { $0["event"] as? String == "finished" }?["played"] as? Int, 1)
        let samples = try Data(contentsOf: sound).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        XCTAssertGreaterThan(samples.count, 48_000 * 3, "the audio part's 4 s reached the sink")
        XCTAssertGreaterThan(samples.map { abs(Int($0)) }.max() ?? 0, 2000, "a tone, not silence")
        for path in ["/v.mp4", "/a.m4a"] {
            let asked = server.requests.filter { $0.path == path }
            XCTAssertFalse(asked.isEmpty, "\(path) was fetched")
            XCTAssertTrue(asked.allSatisfy { $0.header("Sec-Fetch-Mode") == "navigate" && $0.status < 300 }, "\(path) with the header: \(asked)")
        }
    }
}
