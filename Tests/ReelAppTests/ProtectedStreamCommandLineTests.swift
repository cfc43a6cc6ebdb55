import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ReelApp
import ReelCore
import ReelTestSupport
import XCTest

/// `reel play --header … --token-file … URL`: parsing, and the real binary against a real
/// server on 127.0.0.1 that answers 401 without the header.
final class ProtectedStreamCommandLineTests: XCTestCase {
    func testOptionsParseIntoSettings() throws {
        let command = try PlayCommand.parse([
            "--header", "X-Reel-Key: abc123456", "--header", "Referer: https://example.com/", "--header-host", "cdn.example.net",
            "--token-file", "/tmp/t.json", "--bucket", "sports", "--token-placement", "both", "--finished", "--http-log", "/tmp/h.log", "http://h/x.m3u8",
        ])
        let s = try command.protected.settings()
        XCTAssertEqual(s.headers.map(\.name), ["X-Reel-Key", "Referer"])
        XCTAssertEqual(s.headers.first?.value, "abc123456")
        XCTAssertEqual(s.allowedHosts, ["cdn.example.net"])
        XCTAssertEqual(s.tokenFile, "/tmp/t.json")
        XCTAssertEqual(s.bucket, "sports")
        XCTAssertEqual(s.placement, .both)
        XCTAssertTrue(s.finished)
        XCTAssertEqual(s.httpLogPath, "/tmp/h.log")
        XCTAssertTrue(s.isActive)
        XCTAssertFalse(try PlayCommand.parse(["x.mp4"]).protected.settings().isActive, "no options: no gateway")
    }

    func testBadOptionsAreClearErrors() {
        let cases: [([String], String)] = [
            (["--header", "NoColon"], "--header: A header must be written 'Name: value'."),
            (["--header", "Bad Name: x"], "'Bad Name' is not a valid HTTP header name."),
            (["--token-file", "a", "--token-url", "http://h/t"], "Use --token-file or --token-url, not both."),
            (["--bucket", "b"], "--bucket needs --token-file or --token-url."),
            (["--token-url", "ftp://h/t"], "--token-url: 'ftp://h/t' is not an http(s) URL."),
            (["--token-placement", "query"], "--token-placement needs --token-file or --token-url (or an input URL with its own Authorization parameter)."),
        ]
        for (arguments, expected) in cases {
            XCTAssertThrowsError(try PlayCommand.parse(arguments + ["http://h/x.m3u8"]), arguments.joined(separator: " ")) { error in
                let text = PlayCommand.message(for: error)
                XCTAssertTrue(text.contains(expected), "\(arguments) → \(text)")
            }
        }
    }

    func testBenchGatewayPrintsJSON() throws {
        let result = ProcessRunner.run(ProcessRunner.reelExecutable, ["bench-gateway", "--requests", "10", "--large-mib", "2", "--large-requests", "1", "--json"], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["benchmark"] as? String, "gateway")
        XCTAssertEqual(json?["latency_requests"] as? Int, 10)
        for path in ["direct", "gateway"] {
            let p = json?[path] as? [String: Any]
            XCTAssertGreaterThan(p?["median_ms"] as? Double ?? 0, 0, path)
            XCTAssertGreaterThan(p?["mib_per_s"] as? Double ?? 0, 0, path)
        }
    }

    func testTheBinaryPlaysAProtectedMasterAndLogsPrivately() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("X-Reel-Key", "cli-secret-91e2")
        let dir = TestMedia.temporaryDirectory("reel-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("http.log").path
        let master = server.url("/hls/vod/master.m3u8").absoluteString
        let result = ProcessRunner.run(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
            "--header", "X-Reel-Key: cli-secret-91e2", "--http-log", log, master,
        ], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.timedOut)
        XCTAssertFalse(server.requests.isEmpty)
        for r in server.requests { XCTAssertEqual(r.header("X-Reel-Key"), "cli-secret-91e2", "\(r)") }
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/vod/hi/segment00002.ts" || $0.path == "/hls/vod/lo/segment00002.ts" })
        XCTAssertTrue(result.stdout.contains(master), "events name the item's own URL, not the gateway's")
        XCTAssertFalse(result.stdout.contains("/i/1/0/"), "no gateway URL in events")
        XCTAssertFalse(result.stdout.contains("cli-secret-91e2") || result.stderr.contains("cli-secret-91e2"))
        let attributes = try FileManager.default.attributesOfItem(atPath: log)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, server.requests.count, "one log line per upstream request")
        XCTAssertFalse(lines.contains { $0.contains("cli-secret-91e2") })
    }

    func testAnHTTPSStreamWithAPrivateCAPlaysWithCAFileAndFailsClearlyWithout() throws {
        TestMedia.ensureGenerated()
        let tls = try XCTUnwrap(TLSFixture.shared, "openssl made no certificate")
        let server = try HTTPFixtureServer(tls: tls)
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("X-Reel-Key", "tls-secret-3c7a")
        let master = server.url("/hls/vod/master.m3u8").absoluteString
        XCTAssertTrue(master.hasPrefix("https://127.0.0.1:"))
        let args = ["--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
                    "--header", "X-Reel-Key: tls-secret-3c7a"]
        let played = ProcessRunner.run(ProcessRunner.reelExecutable, args + ["--ca-file", tls.certificatePath, master], timeout: 60)
        XCTAssertEqual(played.status, 0, played.stderr)
        XCTAssertEqual(played.malformedJSONLines, [])
        XCTAssertEqual(played.jsonObjects.filter { $0["event"] as? String == "end" }.count, 1, played.stdout)
        XCTAssertTrue(server.requests.contains { $0.path.hasSuffix("/segment00002.ts") }, "the stream played to its last segment")
        for r in server.requests { XCTAssertEqual(r.header("X-Reel-Key"), "tls-secret-3c7a", "\(r)") }

        server.clearRequests()
        let refused = ProcessRunner.run(ProcessRunner.reelExecutable, args + [master], timeout: 60)
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("not trusted") && refused.stderr.contains("--ca-file"), refused.stderr)
        XCTAssertTrue(server.requests.isEmpty, "nothing was sent over the untrusted connection")
        XCTAssertFalse(refused.stdout.contains("tls-secret-3c7a") || refused.stderr.contains("tls-secret-3c7a"))

        let bad = ProcessRunner.run(ProcessRunner.reelExecutable, ["--headless", "--ca-file", "/nonexistent.pem", master], timeout: 30)
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--ca-file"), bad.stderr)
    }

    /// A playlist entry's own header goes to that entry's requests only: the next entry, on the
    /// same server, is played directly and sends nothing secret.
    func testAPlaylistEntrysHeaderReachesThatEntryOnly() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls/vod/lo"), at: "/open")
        for name in ["index.m3u8", "segment00000.ts", "segment00001.ts", "segment00002.ts"] { server.exemptFromAuth("/open/" + name) }
        server.requireHeader("X-Entry-Key", "entry-secret-5151")
        let dir = TestMedia.temporaryDirectory("reel-entry-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("two.m3u")
        try Data("""
            #EXTM3U
            #EXTREEL:header=X-Entry-Key: entry-secret-5151
            #EXTINF:-1,Protected
            \(server.url("/hls/aes/index.m3u8").absoluteString)
            #EXTINF:-1,Open
            \(server.url("/open/index.m3u8").absoluteString)
            """.utf8).write(to: list)
        let result = ProcessRunner.run(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false", list.path,
        ], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.jsonObjects.filter { $0["event"] as? String == "end" }.count, 2, result.stdout)
        let protected = server.requests.filter { $0.path.hasPrefix("/hls/") }, open = server.requests.filter { $0.path.hasPrefix("/open/") }
        XCTAssertTrue(protected.contains { $0.path.hasSuffix("segment00002.ts") } && open.contains { $0.path.hasSuffix("segment00002.ts") },
                      "both played to their last segment: \(server.requests)")
        for r in protected { XCTAssertEqual(r.header("X-Entry-Key"), "entry-secret-5151", "\(r)") }
        for r in open { XCTAssertNil(r.header("X-Entry-Key"), "the other entry gets no header: \(r)") }
        XCTAssertFalse(result.stdout.contains("entry-secret-5151") || result.stderr.contains("entry-secret-5151"))
    }

    /// `--token-file` and `--bucket`: the bucket's token is the Authorization header of every
    /// request, and it appears nowhere in what Reel prints.
    func testABucketsTokenFromAFileReachesEveryRequestAndIsNeverPrinted() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("Authorization", "Bearer sports-token-8e8e8e")
        let dir = TestMedia.temporaryDirectory("reel-token-cli")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tokens = dir.appendingPathComponent("tokens.json")
        try Data(#"{"tokens":[{"bucket":"news","token":"Bearer news-token-1f1f1f"},{"bucket":"sports","token":"Bearer sports-token-8e8e8e"}]}"#.utf8).write(to: tokens)
        let log = dir.appendingPathComponent("http.log").path
        let master = server.url("/hls/vod/master.m3u8?Authorization=stale-token-0000").absoluteString
        let result = ProcessRunner.run(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--events-progress", "--audio-sink", "fakesink sync=false", "--video-sink", "fakesink sync=false",
            "--token-file", tokens.path, "--bucket", "sports", "--http-log", log, master,
        ], timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(server.requests.contains { $0.path.hasSuffix("segment00002.ts") }, "\(server.requests)")
        for r in server.requests {
            XCTAssertEqual(r.header("Authorization"), "Bearer sports-token-8e8e8e", "\(r)")
            XCTAssertFalse(r.uri.contains("stale-token"), "the stale query token is replaced by the header: \(r.uri)")
        }
        let logText = try String(contentsOfFile: log, encoding: .utf8)
        for secret in ["sports-token-8e8e8e", "news-token-1f1f1f", "stale-token-0000"] {
            XCTAssertFalse(result.stdout.contains(secret) || result.stderr.contains(secret) || logText.contains(secret), secret)
        }
    }

    func testTheBinaryReportsNotAuthorizedWithoutTheRightHeader() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("X-Reel-Key", "cli-secret-91e2")
        server.exemptFromAuth("/hls/vod/master.m3u8")  // only the variants are refused
        let result = ProcessRunner.run(ProcessRunner.reelExecutable, [
            "--headless", "--events", "--audio-sink", "fakesink", "--video-sink", "fakesink",
            "--header", "X-Reel-Key: wrong-secret-0000", server.url("/hls/vod/master.m3u8").absoluteString,
        ], timeout: 60)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stdout.contains("not-authorized"), result.stdout)
        XCTAssertFalse(result.stdout.contains("unsupported-format"), "the status event carries the gateway's error too: \(result.stdout)")
        XCTAssertFalse(result.stdout.contains("/i/1/"), "no gateway URL in events: \(result.stdout)")
        XCTAssertTrue(result.stderr.contains("HTTP 401") && result.stderr.contains("/hls/vod/"), result.stderr)
        XCTAssertFalse(result.stdout.contains("wrong-secret-0000") || result.stderr.contains("wrong-secret-0000"))
    }
}

/// Playlist-entry options through the router: the entry's header reaches every request.
final class ProtectedStreamEntryTests: XCTestCase {
    /// GET on a plain thread (the router's blocking calls must not run on the concurrency pool).
    private func get(_ url: URL) -> (status: Int, body: Data) {
        let done = DispatchSemaphore(value: 0)
        let box = ResponseBox()
        URLSession.shared.dataTask(with: url) { data, response, _ in
            box.set((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
            done.signal()
        }.resume()
        _ = done.wait(timeout: .now() + 20)
        return box.get()
    }

    func testAnEntrysHeaderAndBucketApplyToThatEntry() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.requireHeader("X-Entry-Key", "entry-secret-4411")
        let dir = TestMedia.temporaryDirectory("reel-entry")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tokens = dir.appendingPathComponent("tokens.json")
        try Data(#"{"tokens":[{"bucket":"news","token":"news-token-abcdef"},{"bucket":"sports","token":"sports-token-123456"}]}"#.utf8).write(to: tokens)
        let router = GatewayRouter(settings: ProtectedStreamSettings(tokenFile: tokens.path))
        defer { router.shutdown() }
        // As the playlist parser stores `#EXTREEL:header=…`, `#EXTREEL:bucket=…`, `#EXTREEL:token-placement=…`.
        let entry = try ProtectedEntryOptions(options: [
            "header": ["X-Entry-Key: entry-secret-4411"], "bucket": ["sports"], "token-placement": ["query"],
        ])
        let uri = try router.uri(for: server.url("/hls/aes/index.m3u8").absoluteString, entry: entry)
        var fetched = 0
        let playlist = String(decoding: get(URL(string: uri)!).body, as: UTF8.self)
        for segment in try XCTUnwrap(HLSPlaylist.parse(playlist).media).segments {
            XCTAssertEqual(get(URL(string: segment.uri)!).status, 200)
            fetched += 1
        }
        XCTAssertEqual(fetched, 3)
        XCTAssertEqual(server.requests.count, 4)
        for r in server.requests {
            XCTAssertEqual(r.header("X-Entry-Key"), "entry-secret-4411", "\(r)")
            XCTAssertTrue(r.uri.hasSuffix("Authorization=sports-token-123456"), r.uri)
        }
        // A local file is never routed.
        XCTAssertEqual(try router.uri(for: "/tmp/x.mp4", entry: entry), "file:///tmp/x.mp4")
    }
}

/// A response handed from URLSession's thread to the test.
private final class ResponseBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: (Int, Data) = (0, Data())
    func set(_ status: Int, _ body: Data) { lock.lock(); value = (status, body); lock.unlock() }
    func get() -> (status: Int, body: Data) { lock.lock(); defer { lock.unlock() }; return value }
}
