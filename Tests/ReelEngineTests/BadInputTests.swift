import Foundation
import ReelCore
import ReelEngine
import ReelTestSupport
import XCTest
import ReelGLib

/// Bad input straight into the engine: broken files and misbehaving HTTP servers on 127.0.0.1.
/// Each must end in a specific `PlaybackError.kind` (or, for input that is merely unusual, in a
/// normal end), within a bound, without crashing. The queue's going on is in ReelAppTests.
///
/// The class stays nonisolated (XCTest on Linux cannot discover @MainActor classes); each test
/// enters the main actor, where the player and the GLib main loop live.
final class BadInputTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = TestMedia.temporaryDirectory("reel-badinput")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: scratch)
    }

    private static func write(_ name: String, _ data: Data, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    private static func randomBytes(_ count: Int, seed: UInt64) -> Data {
        var g = SplitMix(seed: seed)
        return Data((0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) })
    }

    // MARK: Files

    func testZeroByteFileIsEmptyFile() throws {
        try onMainActor {
            _ = try Harness.expectError(TestMedia.path("empty.mp4"), .emptyFile, bound: 5)
        }
    }

    func testMissingFileIsNotFound() throws {
        let dir: URL = scratch
        try onMainActor {
            _ = try Harness.expectError(dir.appendingPathComponent("no-such-file.mp4").path, .notFound, bound: 5)
        }
    }

    func testTextNamedMP4IsUnsupportedFormat() throws {
        try onMainActor {
            _ = try Harness.expectError(TestMedia.path("notmedia.mp4"), .unsupportedFormat)
        }
    }

    func testRandomBytesAreUnsupportedFormat() throws {
        let dir: URL = scratch
        try onMainActor {
            _ = try Harness.expectError(try Self.write("random.mp4", Self.randomBytes(200_000, seed: 1), in: dir), .unsupportedFormat)
        }
    }

    func testDamagedIndexIsCorrupt() throws {
        try onMainActor {
            _ = try Harness.expectError(TestMedia.path("corrupt.mp4"), .corrupt)
        }
    }

    func testFileCutBeforeItsIndexIsCorrupt() throws {
        let dir: URL = scratch
        try onMainActor {
            let head = try Data(contentsOf: TestMedia.url("color10s.mp4")).prefix(1500)
            _ = try Harness.expectError(try Self.write("cut.mp4", head, in: dir), .corrupt)
        }
    }

    /// A faststart MP4 cut in the middle of its data plays what it has, then ends: no hang.
    func testTruncatedMediaPlaysWhatItHasAndEnds() throws {
        try onMainActor {
            let o = try Harness.play(TestMedia.path("truncated.mp4"))
            XCTAssertNil(o.error, "\(o.error?.debug ?? "")")
            XCTAssertTrue(o.ended, "events: \(o.events)")
        }
    }

    /// Extensions do not decide: a PNG named .mp4 shows as a still, an MP4 named .mkv plays.
    func testWrongExtensionsPlayByContent() throws {
        let dir: URL = scratch
        try onMainActor {
            let png = try Self.write("picture.mp4", try Data(contentsOf: URL(fileURLWithPath: try Self.makePNG(in: dir))), in: dir)
            let still = try Harness.play(png)
            XCTAssertNil(still.error, "\(still.error?.debug ?? "")")
            XCTAssertTrue(still.ended)
            let mkv = try Self.write("clip.mkv", try Data(contentsOf: TestMedia.url("clip2s.mp4")), in: dir)
            let clip = try Harness.play(mkv)
            XCTAssertNil(clip.error, "\(clip.error?.debug ?? "")")
            XCTAssertTrue(clip.ended)
        }
    }

    private static func makePNG(in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("red.png").path
        let r = ProcessRunner.run("/usr/bin/convert", ["-size", "64x48", "xc:red", "png:" + path], timeout: 30)
        guard r.status == 0 else { throw XCTSkip("ImageMagick convert failed: \(r.stderr)") }
        return path
    }

    // MARK: HTTP on 127.0.0.1

    func testConnectionResetIsNetwork() throws {
        try onMainActor {
            let server = try MisbehavingHTTPServer(.reset)
            defer { server.stop() }
            _ = try Harness.expectError(server.url, .network)
            XCTAssertFalse(server.requests.isEmpty, "the player asked the server")
        }
    }

    func testGarbageInsteadOfHTTPIsNetwork() throws {
        try onMainActor {
            let server = try MisbehavingHTTPServer(.garbage)
            defer { server.stop() }
            _ = try Harness.expectError(server.url, .network)
        }
    }

    /// A server that accepts and never answers: a timeout after the configured 2 s (plus
    /// souphttpsrc's own bookkeeping), never a hang.
    func testStalledServerTimesOutInBoundedTime() throws {
        try onMainActor {
            let server = try MisbehavingHTTPServer(.stall(seconds: 60))
            defer { server.stop() }
            let start = Date()
            let error = try Harness.expectError(server.url, .timeout, bound: 30, networkTimeout: 2)
            let elapsed = Date().timeIntervalSince(start)
            XCTAssertGreaterThanOrEqual(elapsed, 1.5, "not before the timeout")
            XCTAssertLessThan(elapsed, 30, "bounded")
            XCTAssertEqual(error?.message, "The server stopped answering.")
        }
    }

    func testBodyShorterThanContentLengthIsNetwork() throws {
        try onMainActor {
            let body = try Data(contentsOf: TestMedia.url("clip2s.mp4"))
            let server = try MisbehavingHTTPServer(.wrongContentLength(body: body.prefix(body.count / 2), declaredLength: body.count * 2))
            defer { server.stop() }
            let o = try Harness.play(server.url)
            // souphttpsrc sees the connection close early and asks for the rest with a Range: the
            // server answers 200 from the start again, and the item fails as a network error. It
            // must never claim to have played a body it did not get in full.
            XCTAssertFalse(o.ended, "events: \(o.events)")
            XCTAssertNotNil(o.error, "events: \(o.events)")
            XCTAssertEqual(o.error?.kind, .network, "\(o.error?.debug ?? "")")
        }
    }

    /// GStreamer 1.22's playbin3 aborts the process when it is handed the next URI after an item
    /// failed mid-stream; the engine replaces a failed item's playbin3. The same player must then
    /// play the next item to its end, with the volume it had.
    func testSamePlayerPlaysOnAfterAMidStreamFailure() throws {
        let body = try Data(contentsOf: TestMedia.url("clip2s.mp4"))
        let server = try MisbehavingHTTPServer(.wrongContentLength(body: body.prefix(body.count / 2), declaredLength: body.count * 2))
        defer { server.stop() }
        try onMainActor {
            let player = try Player(configuration: PlayerConfiguration(audioSink: "fakesink sync=false", videoSink: "fakesink sync=false"))
            defer { player.shutdown() }
            var errors: [PlaybackErrorKind] = [], ends = 0
            player.addObserver { event in
                if case .error(let e) = event { errors.append(e.kind) }
                if case .playedToEnd = event { ends += 1 }
            }
            player.volume = 0.25
            player.load(server.url)
            player.play()
            XCTAssertTrue(GLibMainLoop.run(until: { !errors.isEmpty }, timeout: 20))
            player.load(TestMedia.path("clip2s.mp4"))
            player.play()
            XCTAssertTrue(GLibMainLoop.run(until: { ends == 1 }, timeout: 20), "errors: \(errors)")
            XCTAssertEqual(errors, [.network])
            XCTAssertEqual(player.volume, 0.25, accuracy: 0.001)
        }
    }

    func testRandomBodyIsUnsupportedFormat() throws {
        try onMainActor {
            let server = try MisbehavingHTTPServer(.serve(body: Self.randomBytes(100_000, seed: 2), contentType: "video/mp4"))
            defer { server.stop() }
            _ = try Harness.expectError(server.url, .unsupportedFormat)
        }
    }

    func testHTTPStatusesAreSpecific() throws {
        try onMainActor {
            for (code, kind) in [(404, PlaybackErrorKind.notFound), (500, .serverError), (403, .notAuthorized)] {
                let server = try MisbehavingHTTPServer(.status(code))
                defer { server.stop() }
                let error = try Harness.expectError(server.url, kind)
                XCTAssertEqual(error?.httpStatus, code)
            }
        }
    }
}

/// Plays inputs through a `Player` with fake sinks and reports what came out.
private enum Harness {
    struct Outcome {
        var error: PlaybackError?
        var ended = false
        var elapsed: Double = 0
        var events: [String] = []
    }

    /// Plays `input` with fake sinks (no sync: as fast as possible) until an error, the end, or
    /// `bound` seconds.
    @MainActor
    static func play(_ input: String, bound: Double = 20, networkTimeout: UInt32 = 2) throws -> Outcome {
        var config = PlayerConfiguration(audioSink: "fakesink sync=false", videoSink: "fakesink sync=false", endAction: .pause)
        config.networkTimeout = networkTimeout
        let player = try Player(configuration: config)
        defer { player.shutdown() }
        var outcome = Outcome()
        player.addObserver { event in
            outcome.events.append(event.name)
            switch event {
            case .error(let e): outcome.error = e
            case .playedToEnd: outcome.ended = true
            default: break
            }
        }
        let start = Date()
        player.load(input)
        player.play()
        GLibMainLoop.run(until: { outcome.error != nil || outcome.ended }, timeout: bound)
        outcome.elapsed = Date().timeIntervalSince(start)
        if case .failed(let e) = player.status { XCTAssertEqual(e, outcome.error, "the status carries the reported error") }
        return outcome
    }

    @MainActor
    static func expectError(_ input: String, _ kind: PlaybackErrorKind, bound: Double = 20, networkTimeout: UInt32 = 2,
                             file: StaticString = #filePath, line: UInt = #line) throws -> PlaybackError? {
        let o = try play(input, bound: bound, networkTimeout: networkTimeout)
        XCTAssertFalse(o.ended, "\(input) must not play to an end", file: file, line: line)
        guard let error = o.error else {
            XCTFail("\(input): no error within \(bound) s (events: \(o.events))", file: file, line: line)
            return nil
        }
        XCTAssertEqual(error.kind, kind, "\(input): \(error.message) | \(error.debug ?? "")", file: file, line: line)
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        return error
    }
}

/// Runs a test body on the main actor (XCTest on Linux calls tests on the main thread).
private func onMainActor<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
}
