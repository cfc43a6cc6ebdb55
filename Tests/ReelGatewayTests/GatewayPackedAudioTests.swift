import Foundation
import ReelCore
import ReelGateway
import ReelTestSupport
import XCTest

/// Bare packed audio (hls/packed: ffmpeg's segment muxer, ADTS AAC, no ID3) from a plain HTTP
/// server through the gateway: each segment arrives with the ID3 timestamp RFC 8216 asks for
/// (hlsdemux2 1.22 refuses packed audio without it), at its start on the playlist's timeline, its
/// Content-Length grown by the tag; everything else of it, and a range of it, unchanged.
final class GatewayPackedAudioTests: XCTestCase {
    func testEachBareSegmentGetsItsTimestampAndNothingElseChanges() async throws {
        TestMedia.ensureGenerated()
        let server = try HTTPFixtureServer()
        defer { server.shutdown() }
        server.serveDirectory(TestMedia.url("hls/packed/aac"), at: "/radio")
        let gateway = try await Gateway.start()
        let (_, url) = gateway.register(GatewayItem(url: server.url("/radio/index.m3u8")))
        let playlist = try await GatewayTestClient.fetch(url)
        let segments = playlist.text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap { URL(string: String($0)) }
        XCTAssertEqual(segments.count, 5, playlist.text)
        var start = 0.0
        let durations = playlist.text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("#EXTINF:") }
            .compactMap { Double($0.dropFirst(8).split(separator: ",").first ?? "") }
        for (i, segment) in segments.enumerated() {
            let onDisk = try Data(contentsOf: TestMedia.url(String(format: "hls/packed/aac/s%03d.aac", i)))
            let served = try await GatewayTestClient.fetch(segment)
            let tag = PackedAudioTimestamp.tag(start: start)
            XCTAssertEqual(served.status, 200)
            XCTAssertEqual(Array(served.body.prefix(tag.count)), tag, "segment \(i): its timestamp, \(start) s, first")
            XCTAssertEqual(served.body.dropFirst(tag.count), onDisk, "segment \(i): then its bytes unchanged")
            XCTAssertEqual(served.header("Content-Length"), String(onDisk.count + tag.count), "segment \(i)")
            start += durations[i]
        }
        // A range is the server's bytes as they are (the tag would shift every offset).
        let part = try await GatewayTestClient.fetch(segments[1], headers: [("Range", "bytes=0-99")])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, try Data(contentsOf: TestMedia.url("hls/packed/aac/s001.aac")).prefix(100))
        await gateway.shutdown()
    }
}
