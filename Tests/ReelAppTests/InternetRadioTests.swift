import Foundation
import ReelTestSupport
import XCTest

/// An internet radio (Shoutcast/Icecast: MP3 with ICY metadata, a `StreamTitle` every few
/// seconds) from a real server on 127.0.0.1: the song playing is said as it changes — in
/// `media-info`, the window's title and MPRIS's `xesam:title` (as mpv's media-title, Totem and
/// GNOME's media controls show it) — directly and through the gateway for a protected stream.
/// Before, the title stayed null; through the gateway the `icy-metaint` header was dropped, so
/// the interleaved titles were played as audio and never read.
final class InternetRadioTests: XCTestCase {
    static let titles = ["First Artist - First Song", "Second Artist - Second Song"]

    private func radio() throws -> HTTPFixtureServer {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        // 8000 bytes a second (64 kbit/s): a title block every second, the song changing after 4.
        server.serve("/stream", .icy(TestMedia.url("radio.mp3"), metaInterval: 8000, titles: Self.titles, blocksPerTitle: 4, bytesPerSecond: 8200))
        return server
    }

    /// The titles said in `media-info` events, each once, in order.
    private func saidTitles(_ arguments: [String], server: HTTPFixtureServer) -> (titles: [String], run: ProcessRunner.Result) {
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true"] + arguments
                                      + [server.url("/stream").absoluteString], timeout: 40)
        let titles = r.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["event"] as? String == "media-info" }.compactMap { $0["title"] as? String }
        return (titles.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }, r)
    }

    func testTheSongPlayingIsSaidAsItChanges() throws {
        let server = try radio()
        defer { server.shutdown() }
        let (titles, r) = saidTitles([], server: server)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(titles, Self.titles, r.stdout.split(separator: "\n").filter { $0.contains("media-info") }.joined(separator: "\n"))
        XCTAssertEqual(server.requests.first?.header("Icy-MetaData"), "1", "the player asks for the titles")
    }

    /// A protected radio (a header on its requests) goes through the gateway: the header reaches
    /// the server, and so do the titles reach the player.
    func testThroughTheGatewayTheTitlesStillArrive() throws {
        let server = try radio()
        defer { server.shutdown() }
        server.requireHeader("X-Station-Key", "k3y")
        let (titles, r) = saidTitles(["--header", "X-Station-Key: k3y"], server: server)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(titles, Self.titles, r.stderr)
        XCTAssertTrue(server.requests.allSatisfy { $0.status == 200 }, "\(server.requests)")
    }

    /// GNOME's media controls read MPRIS: `xesam:title` follows the song.
    func testMPRISSaysTheSongPlaying() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("no session bus: run under dbus-run-session (make test does)")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/playerctl") else { throw XCTSkip("playerctl is not installed") }
        let server = try radio()
        defer { server.shutdown() }
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--mpris", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                          server.url("/stream").absoluteString])
        defer { _ = reel.finish(timeout: 15, dumpStacks: false) }
        let name = "reel.instance\(reel.process.processIdentifier)"
        var seen: [String] = []
        let deadline = Date().addingTimeInterval(15)
        while seen.last != Self.titles[1] && Date() < deadline {
            let title = ProcessRunner.run("/usr/bin/playerctl", ["-p", name, "metadata", "xesam:title"], timeout: 5).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if !title.isEmpty, seen.last != title { seen.append(title) }
            usleep(200_000)
        }
        XCTAssertEqual(Array(seen.drop { !Self.titles.contains($0) }), Self.titles, "\(seen)")
    }

    /// A server sending a new title in every metadata block (every 16 bytes, 200 KB/s): titles are
    /// said at most once a second, the newest winning (~1,000 `media-info` a second and the main
    /// thread at 100 % before, issue 46 item 12).
    func testATitleInEveryBlockIsSaidAtMostOnceASecond() throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        let titles = (0..<20_000).map { "Song \($0)" }
        server.serve("/flood", .icy(TestMedia.url("radio.mp3"), metaInterval: 16, titles: titles, blocksPerTitle: 1, bytesPerSecond: 200_000))
        let started = Date()
        let r = ProcessRunner.run(ProcessRunner.reelExecutable,
                                  ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                   server.url("/flood").absoluteString], timeout: 40)
        let seconds = Date().timeIntervalSince(started)
        let said = r.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            .filter { $0["event"] as? String == "media-info" }
        XCTAssertFalse(r.timedOut, r.stderr.suffix(400).description)
        XCTAssertGreaterThan(said.count, 1, "titles were said: \(r.stdout.suffix(600))")
        XCTAssertLessThanOrEqual(Double(said.count), seconds + 3, "at most one a second over \(seconds) s: \(said.count)")
        let times = said.compactMap { $0["t"] as? Double }
        for (a, b) in zip(times, times.dropFirst()).dropFirst() {  // the first title comes with preroll's own media-info
            XCTAssertGreaterThanOrEqual(b - a, 0.9, "a second apart: \(times)")
        }
    }
}
