import Foundation
import ReelTestSupport
import XCTest

/// Issue 31, live DASH as a packager makes it: ffmpeg's DASH muxer in real time (`-re`, 2 s
/// segments, `-window_size 6 -extra_window_size 2`, `-use_template 1`, with and without
/// `-use_timeline`), its directory served as it writes it by a server on 127.0.0.1 that answers
/// 401 without the header; the real binary with `--header`, driven over the control socket.
///
/// Before: nothing played and nothing was said (three GStreamer 1.22 faults in a row: the MPD
/// typed application/xml, dashdemux2 waiting for a segment minutes ahead once the window slid,
/// and 30 s of buffering asked of a 12 s window). Each test waits for the window to slide (the
/// first segment listed is no longer the stream's first), as a user joining a running event.
final class LiveDASHTests: XCTestCase {
    static let token = "Bearer live-dash-31"

    /// - Parameter skew: seconds the origin's clock is off the desktop's; its MPD then names its
    ///   clock (`UTCTiming`, written by ffmpeg's `-utc_timing_url`), and the truth of the stream's
    ///   wall clock is the origin's.
    /// - Parameter clockHangs: the MPD names a clock (`UTCTiming`) that never answers in time.
    private func play(timeline: Bool, skew: Double = 0, streaming: Bool = false, clockHangs: Bool = false, clockTrickles: Bool = false) throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        let packager = try LiveDASHPackager(timeline: timeline, utcTiming: skew != 0 || clockHangs || clockTrickles ? server.url("/live/time") : nil, streaming: streaming)
        defer { packager.stop() }
        XCTAssertTrue(packager.waitUntilSlid(), "ffmpeg's window slid: \(packager.manifest.prefix(600))")
        let anchor = try XCTUnwrap(packager.anchor, "availabilityStartTime").addingTimeInterval(skew)

        server.serveLiveDirectory(packager.directory, at: "/live")
        server.requireHeader("Authorization", Self.token)
        if skew != 0 || clockHangs {
            server.skewClock(by: skew)
            server.serve("/live/time", .clock)
        }
        if clockHangs { server.misbehave("/live/time", Array(repeating: .delayedStatus(200, seconds: 60), count: 20)) }
        let trickle = TestMedia.temporaryDirectory("reel-clock-trickle")
        defer { try? FileManager.default.removeItem(at: trickle) }
        if clockTrickles {
            // Its head at once, then its body a byte every 2 s (issue 46, item 7).
            let body = trickle.appendingPathComponent("time.txt")
            try String(repeating: "2026-11-28T10:00:00Z ", count: 20).write(to: body, atomically: true, encoding: .utf8)
            server.serve("/live/time", .paced(body, contentType: "text/plain", bytesPerSecond: 1))
        }

        let directory = TestMedia.temporaryDirectory("reel-live-dash-ipc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", "--ipc", socket,
                                          "--header", "Authorization: \(Self.token)", server.url("/live/manifest.mpd").absoluteString])
        guard let client = IPCTestClient(path: socket, timeout: 15) else {
            _ = reel.finish(timeout: 5)
            return XCTFail("no control socket: \(reel.stderr)")
        }
        var id = 0
        func property(_ name: String) -> Any? {
            id += 1
            return client.request(["get_property", name], id: id)?["data"]
        }

        let start = try XCTUnwrap(client.waitForEvent(timeout: 20) { $0["event"] as? String == "live" },
                                  "a live event says where playback started: \(reel.stderr.suffix(800))")
        XCTAssertEqual(start["mode"] as? String, "live")
        XCTAssertEqual(start["rule"] as? String, "hold-back")
        let behind = try XCTUnwrap(start["behindLiveEdge"] as? Double)
        // ffmpeg suggests one segment (PT2S); Reel starts at least three back (6 s), ± one segment.
        XCTAssertEqual(behind, 6, accuracy: 2.5, "three segments from the edge")
        let window = try XCTUnwrap(start["window"] as? [String: Any])
        XCTAssertEqual(window["end"] as? Double ?? 0, 12, accuracy: 2.01, "the window is what the MPD lists (6 segments of 2 s)")

        _ = client.waitForEvent(timeout: 10) { $0["event"] as? String == "tick" }
        Thread.sleep(forTimeInterval: 1)
        let now = Date().addingTimeInterval(skew)  // the origin's now
        let epoch = try XCTUnwrap(property("epoch-time") as? Double, "a wall-clock time from availabilityStartTime")
        let distance = try XCTUnwrap(property("behind-live-edge") as? Double)
        // ffmpeg encodes in real time: the media at t was made at availabilityStartTime + t, and
        // the edge is the newest segment's end, at most a segment behind now.
        XCTAssertEqual(epoch + distance, now.timeIntervalSince1970, accuracy: 2.5, "epoch + distance is now, within 2.5 s")
        XCTAssertGreaterThan(epoch, anchor.timeIntervalSince1970 + 8, "the media playing is the window's, not the stream's start")
        XCTAssertEqual(property("live-mode") as? String, "live")
        let info = try XCTUnwrap(client.events.last { $0["event"] as? String == "media-info" })
        XCTAssertEqual(info["live"] as? Bool, true)
        XCTAssertNotNil(info["videoCodec"] as? String, "media-info has the video codec")

        // It plays on: three seconds later, three seconds of media later.
        Thread.sleep(forTimeInterval: 3)
        let later = try XCTUnwrap(property("epoch-time") as? Double)
        XCTAssertEqual(later - epoch, 3, accuracy: 1.2, "playing in real time")

        id += 1
        _ = client.request(["quit"], id: id)
        let (_, killed) = reel.finish(timeout: 10)
        XCTAssertFalse(killed, "reel quits")

        // On the wire: every request carried the header; the MPD was fetched again and again
        // (its refreshes), and both streams' init and media segments were fetched.
        let requests = server.requests
        XCTAssertTrue(requests.allSatisfy { $0.header("Authorization") == Self.token }, requests.filter { $0.header("Authorization") != Self.token }.map(\.description).joined(separator: "\n"))
        XCTAssertFalse(requests.contains { $0.status == 401 }, "no request was refused")
        let paths = requests.map(\.path)
        // (A timeline changes with every segment: refreshed every minimumUpdatePeriod, 2 s; a
        // template by the clock needs no refresh to go on.)
        XCTAssertGreaterThanOrEqual(paths.filter { $0 == "/live/manifest.mpd" }.count, timeline ? 3 : 1, "the MPD and its refreshes")
        for stream in 0...1 {
            XCTAssertTrue(paths.contains("/live/init-stream\(stream).m4s"), "stream \(stream)'s init segment: \(paths)")
            XCTAssertGreaterThanOrEqual(paths.filter { $0.hasPrefix("/live/chunk-stream\(stream)-") }.count, 3, "stream \(stream)'s media segments: \(paths)")
        }
        XCTAssertFalse(requests.contains { $0.path.hasPrefix("/live/chunk-stream") && $0.status == 404 && !$0.path.hasSuffix(".tmp") },
                       "no segment asked for before it existed: \(requests.filter { $0.status == 404 }.map(\.description))")
        if skew != 0 {
            XCTAssertTrue(paths.contains("/live/time"), "the origin's clock was asked, with the header: \(paths.suffix(20))")
        }
    }

    /// Restart on a live MPD: the programme began 9 s ago (inside the 12 s window); the window
    /// begins at its first segment and playback at its start (`suggestedPresentationDelay` in the
    /// MPD the gateway serves is the distance to it). It ends 10 s later: `live-program-end`
    /// then, once, and playback goes on.
    func testRestartStartsAtTheProgrammeStart() throws {
        try restart(atOrigin: false)
    }

    /// Restart asked of the origin (`--timeshift-url '&start={start_epoch}'`): every MPD request
    /// (the first and the refreshes) carries the programme's start, and playback starts there. (The
    /// origin here answers the live window, which holds the programme; an MPD's times are its own,
    /// so Reel finds the programme in it the same way when the origin cut the window to it.)
    func testRestartAtTheOriginAsksForTheProgrammeAndStartsThere() throws {
        try restart(atOrigin: true)
    }

    private func restart(atOrigin: Bool) throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let (packager, server) = try LiveDASHPackager.slidAndServed(header: ("Authorization", Self.token))
        defer { packager.stop(); server.shutdown() }

        let programStart = Date().addingTimeInterval(-9)
        let programEnd = Date().addingTimeInterval(10)  // after the start: a restart, not a catchup
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let directory = TestMedia.temporaryDirectory("reel-live-dash-ipc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("reel.sock").path
        let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                         ["--headless", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", "--ipc", socket,
                                          "--header", "Authorization: \(Self.token)", "--live-mode", "restart", "--program-start", iso.string(from: programStart),
                                          "--program-end", iso.string(from: programEnd)]
                                          + (atOrigin ? ["--timeshift-url", "&start={start_epoch}"] : []) + [server.url("/live/manifest.mpd?ch=1").absoluteString])
        guard let client = IPCTestClient(path: socket, timeout: 15) else {
            _ = reel.finish(timeout: 5)
            return XCTFail("no control socket: \(reel.stderr)")
        }
        let start = try XCTUnwrap(client.waitForEvent(timeout: 20) { $0["event"] as? String == "live" }, "a live event: \(reel.stderr.suffix(800))")
        XCTAssertEqual(start["mode"] as? String, "restart")
        XCTAssertEqual(start["rule"] as? String, "program-start")
        let epoch = try XCTUnwrap(start["epochTime"] as? Double)
        XCTAssertEqual(epoch, programStart.timeIntervalSince1970, accuracy: 2.5, "the programme start, ± one segment")
        let position = try XCTUnwrap(start["position"] as? Double)
        XCTAssertEqual(position, 0, accuracy: 2.5, "the window begins at the programme")
        let behind = try XCTUnwrap(start["behindLiveEdge"] as? Double)
        XCTAssertEqual(behind, 9, accuracy: 3, "about as far behind the edge as the programme began")
        XCTAssertFalse(client.events.contains { $0["event"] as? String == "warning" }, "no warning: \(client.events.filter { $0["event"] as? String == "warning" })")
        // Playback goes on past the programme's end, which is said once.
        let ended = try XCTUnwrap(client.waitForEvent(timeout: 15) { $0["event"] as? String == "live-program-end" },
                                  "live-program-end: \(client.events.compactMap { $0["event"] as? String }.filter { $0 != "tick" }) \(reel.stderr.suffix(800))")
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(programEnd), -0.5, "not before the programme's end: \(ended)")
        // It goes on: a restart is not cut to its programme when the programme ends while it
        // plays (it was, at the first refresh after the end: played to the end and stopped).
        // (The programme's time: the window slides here, so a position on its scale stands still.)
        let before = try XCTUnwrap(client.request(["get_property", "epoch-time"], id: 2)?["data"] as? Double)
        Thread.sleep(forTimeInterval: 8)
        let later = try XCTUnwrap(client.request(["get_property", "epoch-time"], id: 3)?["data"] as? Double)
        XCTAssertGreaterThan(later - before, 5, "still playing 8 s after the programme's end")
        XCTAssertEqual(client.request(["get_property", "live-mode"], id: 4)?["data"] as? String, "restart")
        XCTAssertFalse(client.events.contains { $0["event"] as? String == "end" }, "no end")
        _ = client.request(["quit"], id: 1)
        let (_, killed) = reel.finish(timeout: 10)
        XCTAssertFalse(killed, "reel quits")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == Self.token })
        let mpds = server.requests.filter { $0.path == "/live/manifest.mpd" }.map(\.uri)
        XCTAssertGreaterThanOrEqual(mpds.count, 2, "the MPD and its refreshes")
        let asked = atOrigin ? "/live/manifest.mpd?ch=1&start=\(Int(programStart.timeIntervalSince1970))" : "/live/manifest.mpd?ch=1"
        XCTAssertEqual(Set(mpds), [asked], "every MPD request")
    }

    /// Catchup on a live MPD: a programme that ended 3 s ago and lasted 8 s is its segments as a
    /// static MPD (`DASHCatchup`), played as VOD from 0 to its end.
    func testCatchupPlaysTheProgrammeAsVOD() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let (packager, server) = try LiveDASHPackager.slidAndServed(header: ("Authorization", Self.token))
        defer { packager.stop(); server.shutdown() }
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = Date()
        let run = ProcessRunner.run(ProcessRunner.reelExecutable,
                                    ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true",
                                     "--header", "Authorization: \(Self.token)", "--live-mode", "catchup",
                                     "--program-start", iso.string(from: now.addingTimeInterval(-11)), "--program-end", iso.string(from: now.addingTimeInterval(-3)),
                                     server.url("/live/manifest.mpd").absoluteString], timeout: 40)
        XCTAssertEqual(run.status, 0, run.stderr)
        let events = run.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let duration = try XCTUnwrap(events.last { $0["event"] as? String == "duration" }?["duration"] as? Double, "a duration: \(run.stdout.suffix(1500))")
        XCTAssertEqual(duration, 9, accuracy: 3, "the programme's 8 s, to whole segments")
        XCTAssertEqual(events.first { $0["event"] as? String == "media-info" }?["live"] as? Bool, false, "played as VOD")
        XCTAssertNil(events.first { $0["event"] as? String == "warning" }, "no warning")
        XCTAssertNotNil(events.first { $0["event"] as? String == "end" }, "to its end")
        XCTAssertEqual(events.last?["event"] as? String, "finished")
        XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == Self.token })
        XCTAssertEqual(server.requests.filter { $0.path == "/live/manifest.mpd" }.count, 1, "a static MPD is not refreshed")
    }

    /// `--quality` on a live MPD with two video Representations, each pinned in turn (`auto`
    /// starts at 180p and stays there over these seconds, so the 360p pin is the one that moves
    /// what is fetched; the 180p one must hold once the throughput is known): by the server's log, the pinned Representation's media and, after its first, none of the other's
    /// (dashdemux2 1.22 starts a video stream at its lowest Representation for one fragment at
    /// most, see ProtectedDASHTests); the rendition event says so.
    func testAQualityPinOnALiveMPDIsWhatTheServerSends() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "no ffmpeg")
        let packager = try LiveDASHPackager(timeline: true, renditions: true)
        defer { packager.stop() }
        XCTAssertTrue(packager.waitUntilSlid(), "ffmpeg's window slid: \(packager.manifest.prefix(600))")
        let server = try HTTPFixtureServer(host: "127.0.0.1")
        defer { server.shutdown() }
        server.serveLiveDirectory(packager.directory, at: "/live")
        server.requireHeader("Authorization", Self.token)
        let directory = TestMedia.temporaryDirectory("reel-live-dash-quality")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (choice, kept, other) in [("180p", "/live/chunk-stream0-", "/live/chunk-stream1-"), ("360p", "/live/chunk-stream1-", "/live/chunk-stream0-")] {
            server.clearRequests()
            let socket = directory.appendingPathComponent("reel-\(choice).sock").path
            // The events from stdout (`--events`): the socket's client sees only those after it
            // connected, and 180p's one rendition event can come first (the demuxer starts there).
            let reel = try BackgroundProcess(ProcessRunner.reelExecutable,
                                             ["--headless", "--events", "--audio-sink", "fakesink sync=true", "--video-sink", "fakesink sync=true", "--ipc", socket,
                                              "--quality", choice, "--header", "Authorization: \(Self.token)", server.url("/live/manifest.mpd").absoluteString])
            guard let client = IPCTestClient(path: socket, timeout: 15) else {
                _ = reel.finish(timeout: 5)
                return XCTFail("no control socket: \(reel.stderr)")
            }
            XCTAssertNotNil(client.waitForEvent(timeout: 20) { $0["event"] as? String == "live" }, "\(choice): it started: \(reel.stderr.suffix(800))")
            Thread.sleep(forTimeInterval: 8)
            // The reply comes after every event sent before it: those of the 8 s are read now
            // (the last rendition was read from those seen by the `live` event alone, a race).
            _ = client.request(["quit"], id: 1)
            let (_, killed) = reel.finish(timeout: 10)
            let events = reel.stdout.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
            let rendition = events.last { $0["event"] as? String == "rendition" }
            XCTAssertFalse(killed, "reel quits")
            XCTAssertEqual(rendition?["height"] as? Int, Int(choice.dropLast()), "\(choice): \(String(describing: rendition))")
            XCTAssertEqual(rendition?["mode"] as? String, "manual")
            let paths = server.requests.map(\.path)
            XCTAssertTrue(server.requests.allSatisfy { $0.header("Authorization") == Self.token })
            XCTAssertGreaterThanOrEqual(paths.filter { $0.hasPrefix(kept) }.count, 3, "\(choice)'s media: \(paths)")
            let firstKept = try XCTUnwrap(paths.firstIndex { $0.hasPrefix(kept) })
            XCTAssertEqual(paths[firstKept...].filter { $0.hasPrefix(other) }, [], "\(choice): none of the other's once pinned: \(paths)")
            XCTAssertLessThanOrEqual(paths.filter { $0.hasPrefix(other) }.count, choice == "360p" ? 1 : 0, "\(choice): \(paths)")
        }
    }

    /// `-use_timeline 1`: SegmentTemplate with `$Number$` over a SegmentTimeline.
    func testALiveTimelinePlaysAtASafeDistanceWithTheHeaderOnEveryRequest() throws {
        try play(timeline: true)
    }

    /// `-use_timeline 0`: SegmentTemplate with `@duration`, numbered by the clock.
    func testALiveDurationTemplatePlaysAtASafeDistanceWithTheHeaderOnEveryRequest() throws {
        try play(timeline: false)
    }

    /// `-streaming 1` (a segment written fragment by fragment under its final name): played the
    /// same way, segments asked for only once they are whole by the clock.
    func testAStreamingPackagersLiveMPDPlaysAtASafeDistance() throws {
        try play(timeline: true, streaming: true)
    }

    /// An origin whose clock is 30 s behind the desktop's, saying so in `UTCTiming` (ffmpeg's
    /// `-utc_timing_url`, http-xsdate): segments numbered by the clock exist 30 s later than the
    /// desktop's clock says. Before: dashdemux2 (whose own clock poll answers only after it chose
    /// where to start) and Reel's window both read the desktop's clock, and asked for segments
    /// 24 s in the future. Now Reel measures the origin's clock through the gateway (with the
    /// header) and reads the window and the start on it.
    func testAnOriginClockBehindTheDesktopIsReadFromUTCTiming() throws {
        try play(timeline: false, skew: -30)
    }

    /// An origin whose clock is 30 s *ahead* of the desktop's (a desktop clock running late): by
    /// the desktop's clock the newest segments are 30 s old, further back than the window holds.
    func testAnOriginClockAheadOfTheDesktopIsReadFromUTCTiming() throws {
        try play(timeline: false, skew: 30)
    }

    /// A clock that never answers (its requests hang): the MPD waits for it a few seconds at most,
    /// then the desktop's clock is taken, and the stream plays as without one.
    func testALiveMPDWhoseClockHangsPlaysOnTheDesktopsClock() throws {
        try play(timeline: false, clockHangs: true)
    }

    /// A clock that answers its head at once and then trickles its body (a byte a second): the
    /// body too is bounded by the clock's budget, so the stream plays on the desktop's clock (it
    /// failed at 15 s, blaming the server, before).
    func testALiveMPDWhoseClockTricklesPlaysOnTheDesktopsClock() throws {
        try play(timeline: false, clockTrickles: true)
    }

    /// The same origin 30 s behind with a SegmentTimeline: the segments are listed, but where to
    /// start and the distance from the edge are still on the clock.
    func testAnOriginClockBehindTheDesktopWithATimelineIsReadFromUTCTiming() throws {
        try play(timeline: true, skew: -30)
    }
}
