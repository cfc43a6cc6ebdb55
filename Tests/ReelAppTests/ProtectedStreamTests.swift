import Foundation
@testable import ReelApp
import ReelCore
import ReelEngine
import ReelGateway
import ReelTestSupport
import XCTest

/// End to end: the real engine (playbin3, fakesinks) plays protected streams from a real HTTP
/// server on 127.0.0.1 through the app's GatewayRouter and the gateway. The server answers 401
/// to any request without the header, and records every request. (XCTest on Linux cannot run
/// `@MainActor` test classes: tests enter the main actor with `MainActor.assumeIsolated`; XCTest
/// runs synchronous tests on the main thread.)
final class ProtectedStreamTests: XCTestCase {
    static let secret = "e2e-secret-5b1d0c"
    var server: HTTPFixtureServer!
    var router: GatewayRouter!

    // Synchronous on purpose: `router.shutdown()` blocks until the gateway stopped, which must
    // not happen on a Swift concurrency thread (the pool is 2 threads wide here).
    override func setUpWithError() throws {
        TestMedia.ensureGenerated()
        server = try HTTPFixtureServer(host: "127.0.0.1")
        server.serveDirectory(TestMedia.directory.appendingPathComponent("hls"), at: "/hls")
        server.serve("/color10s.mp4", .file(TestMedia.url("color10s.mp4"), contentType: "video/mp4"))
        server.requireHeader("X-Reel-Key", Self.secret)
    }

    override func tearDown() {
        router?.shutdown()
        server?.shutdown()
    }

    /// Plays on the main actor (the test runs on the main thread).
    private func playOnMain(_ uri: String, sync: Bool, bound: Double = .infinity, timeout: Double = 30,
                            seeks: [(at: Double, to: Double)] = []) throws -> ProtectedPlayback.Outcome {
        let router = self.router!
        return try onMainActor { try ProtectedPlayback.play(uri, router: router, sync: sync, bound: bound, timeout: timeout, seeks: seeks) }
    }

    private func route(_ path: String, header: String = secret, allowedHosts: [String] = []) throws -> String {
        router = GatewayRouter(settings: ProtectedStreamSettings(headers: [try HeaderField(name: "X-Reel-Key", value: header)], allowedHosts: allowedHosts))
        let uri = try router.uri(for: server.url(path).absoluteString)
        XCTAssertTrue(uri.hasPrefix("http://127.0.0.1:"))
        XCTAssertNotEqual(uri, server.url(path).absoluteString, "routed through the gateway")
        return uri
    }

    private func assertEveryRequestHadTheHeader(file: StaticString = #filePath, line: UInt = #line) {
        let requests = server.requests
        XCTAssertFalse(requests.isEmpty, file: file, line: line)
        for r in requests {
            XCTAssertEqual(r.header("X-Reel-Key"), Self.secret, "\(r)", file: file, line: line)
            XCTAssertEqual(r.status / 100, 2, "\(r)", file: file, line: line)
        }
    }

    private func assertNotAuthorized(_ outcome: ProtectedPlayback.Outcome, path: String, file: StaticString = #filePath, line: UInt = #line) {
        let error = outcome.error
        XCTAssertEqual(error?.kind, .notAuthorized, "\(String(describing: error))", file: file, line: line)
        XCTAssertEqual(error?.httpStatus, 401, file: file, line: line)
        XCTAssertTrue(error?.uri?.contains(path) == true, "\(String(describing: error?.uri))", file: file, line: line)
        XCTAssertFalse("\(String(describing: error))".contains("wrong-value-123"), file: file, line: line)
        XCTAssertFalse(outcome.ended, file: file, line: line)
    }

    // MARK: With the header: plays, and the server saw the header on every request.

    func testMasterWithTwoVariantsPlaysToTheEnd() throws {
        let outcome = try playOnMain(try route("/hls/vod/master.m3u8"), sync: false)
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended, "\(outcome.events.suffix(5))")
        let paths = server.requests.map(\.path)
        XCTAssertTrue(paths.contains("/hls/vod/master.m3u8"))
        XCTAssertTrue(paths.contains { $0.hasPrefix("/hls/vod/hi/") || $0.hasPrefix("/hls/vod/lo/") })
        XCTAssertTrue(paths.contains { $0.hasSuffix("segment00002.ts") }, "the last segment was fetched: \(paths)")
        assertEveryRequestHadTheHeader()
    }

    func testAES128StreamPlaysAndTheKeyRequestHasTheHeader() throws {
        let outcome = try playOnMain(try route("/hls/aes/index.m3u8"), sync: false)
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended)
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/aes/key.bin" })
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/aes/segment00002.ts" })
        assertEveryRequestHadTheHeader()
    }

    func testLiveSlidingWindowRefreshesWithTheHeader() throws {
        let segments = (0..<6).map { (uri: String(format: "segment%05d.ts", $0), duration: 2.0) }
        server.serve("/hls/live/live.m3u8", .live(.init(segments: segments, window: 3, targetDuration: 2, start: Date(), preroll: 4, endsAtLast: true)))
        let outcome = try playOnMain(try route("/hls/live/live.m3u8"), sync: true, bound: 5, timeout: 30)
        XCTAssertNil(outcome.error)
        XCTAssertGreaterThanOrEqual(outcome.maxPosition, 5, "played to the test's bound or the end: \(outcome.events.suffix(5))")
        XCTAssertGreaterThanOrEqual(server.requests.filter { $0.path == "/hls/live/live.m3u8" }.count, 2, "the live playlist was refreshed")
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/live/segment00003.ts" }, "segments revealed later were fetched")
        assertEveryRequestHadTheHeader()
    }

    func testProgressiveMP4WithSeeksUsesRangeAndTheHeader() throws {
        // At the first progress report seek to 6 s, past 6.3 s seek to 9.3 s, then play to the end.
        let outcome = try playOnMain(try route("/color10s.mp4"), sync: true, timeout: 30, seeks: [(0, 6), (6.3, 9.3)])
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended)
        XCTAssertEqual(outcome.seeksDone, 2)
        XCTAssertTrue(outcome.events.contains { if case .seeked = $0 { true } else { false } })
        XCTAssertTrue(server.requests.contains { $0.header("Range") != nil && $0.status == 206 }, "\(server.requests)")
        assertEveryRequestHadTheHeader()
    }

    func testAFinishedEventPlaysAsVODToItsEnd() throws {
        // An event playlist whose end tag is missing (the event is over, the playlist never closed).
        let text = try String(contentsOf: TestMedia.directory.appendingPathComponent("hls/live/index.m3u8"), encoding: .utf8)
            .replacingOccurrences(of: "#EXT-X-ENDLIST", with: "")
            .replacingOccurrences(of: "#EXT-X-TARGETDURATION:2", with: "#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT")
        server.serve("/hls/live/event.m3u8", .data(Data(text.utf8), contentType: "application/vnd.apple.mpegurl"))
        router = GatewayRouter(settings: ProtectedStreamSettings(headers: [try HeaderField(name: "X-Reel-Key", value: Self.secret)], finished: true))
        let outcome = try playOnMain(try router.uri(for: server.url("/hls/live/event.m3u8").absoluteString), sync: false)
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended, "a finished event ends")
        let durations = outcome.events.compactMap { if case .duration(let d?) = $0 { d } else { nil } }
        XCTAssertEqual(durations.last ?? 0, 12, accuracy: 0.5, "a finite duration: \(durations)")
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/live/segment00005.ts" })
        assertEveryRequestHadTheHeader()
    }

    // MARK: Tokens

    func testTokenRotatedMidStreamPlaybackGoesOnAfterOneRefresh() throws {
        let dir = TestMedia.temporaryDirectory("reel-e2e")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tokens.json")
        func publish(_ token: String) throws {
            try Data(#"{"tokens":[{"bucket":"sports","token":"\#(token)"}]}"#.utf8).write(to: file)
        }
        try publish("Bearer e2e-token-one-1111")
        server.requireHeader("X-Reel-Key", nil)
        server.requireHeader("Authorization", "Bearer e2e-token-one-1111")
        server.rotateToken(afterRequests: 4, to: "Bearer e2e-token-two-2222")
        router = GatewayRouter(settings: ProtectedStreamSettings(tokenFile: file.path, bucket: "sports"))
        let uri = try router.uri(for: server.url("/hls/vod/master.m3u8").absoluteString)
        // The provider holds token one from the first request on; the file already has the next.
        let provider = try XCTUnwrap(router.provider(bucket: "sports"))
        let box = TokenBox()
        let loaded = DispatchSemaphore(value: 0)
        Task.detached { box.value = try? await provider.token(); loaded.signal() }
        loaded.wait()
        XCTAssertEqual(box.value, "Bearer e2e-token-one-1111")
        try publish("Bearer e2e-token-two-2222")
        let outcome = try playOnMain(uri, sync: false)
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended)
        XCTAssertEqual(provider.loadCount, 2, "exactly one refresh")
        XCTAssertEqual(server.requests.filter { $0.status == 401 }.count, 1, "\(server.requests)")
        XCTAssertTrue(server.requests.filter { $0.status == 200 }.contains { $0.header("Authorization") == "Bearer e2e-token-two-2222" })
    }

    func testQueryTokenPlacementPlays() throws {
        let dir = TestMedia.temporaryDirectory("reel-e2e")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("tokens.json")
        try Data(#"{"tokens":[{"bucket":"b","token":"q-token/+=e2e"}]}"#.utf8).write(to: file)
        server.requireHeader("X-Reel-Key", nil)
        server.requireQueryToken("q-token/+=e2e")
        router = GatewayRouter(settings: ProtectedStreamSettings(tokenFile: file.path, bucket: "b", placement: .query))
        let outcome = try playOnMain(try router.uri(for: server.url("/hls/aes/index.m3u8?Authorization=old").absoluteString), sync: false)
        XCTAssertNil(outcome.error)
        XCTAssertTrue(outcome.ended)
        XCTAssertTrue(server.requests.contains { $0.path == "/hls/aes/key.bin" })
        for r in server.requests {
            XCTAssertEqual(r.uri.components(separatedBy: "Authorization=").count - 1, 1, r.uri)
            XCTAssertEqual(r.status / 100, 2, "\(r)")
        }
    }

    // MARK: Without the (right) header: the not-authorized error, naming the URL and status.

    func testWithoutTheHeaderEveryStreamFailsNotAuthorized() throws {
        let segments = (0..<6).map { (uri: String(format: "segment%05d.ts", $0), duration: 2.0) }
        server.serve("/hls/live/live.m3u8", .live(.init(segments: segments)))
        for path in ["/hls/vod/master.m3u8", "/hls/aes/index.m3u8", "/hls/live/live.m3u8", "/color10s.mp4"] {
            let outcome = try playOnMain(try route(path, header: "wrong-value-123"), sync: false, timeout: 20)
            assertNotAuthorized(outcome, path: path)
            router.shutdown()
        }
    }

    func testARefusedVariantPlaylistIsReportedNotAuthorizedNotWrongType() throws {
        // The master is open, the variants need the header: hlsdemux2 alone would say "wrong type".
        server.exemptFromAuth("/hls/vod/master.m3u8")
        let outcome = try playOnMain(try route("/hls/vod/master.m3u8", header: "wrong-value-123"), sync: false, timeout: 20)
        assertNotAuthorized(outcome, path: "/hls/vod/")
        XCTAssertEqual(outcome.error?.message.contains("HTTP 401"), true, outcome.error?.message ?? "")
    }
}

/// Runs `body` on the main actor (the test already runs on the main thread).
private func onMainActor<T: Sendable>(_ body: @MainActor () throws -> T) rethrows -> T {
    try MainActor.assumeIsolated(body)
}

/// A value handed from a task to the waiting test thread.
private final class TokenBox: @unchecked Sendable {
    var value: String?
}
