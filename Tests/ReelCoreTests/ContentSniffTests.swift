import ReelCore
import XCTest

/// `ContentSniff`: what a resource is by its first bytes, whatever its name (issue 56).
final class ContentSniffTests: XCTestCase {
    func testTheFirstBytesDecide() {
        let cases: [(String, SniffedContent?)] = [
            (#"<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011">"#, .dashManifest),
            ("\u{FEFF}  <!-- packager --><dash:MPD type=\"static\">", .dashManifest),
            ("<MPD>", .dashManifest),
            ("<MPDX>", nil),
            ("<MP", nil),  // the name may go on
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n", .hlsPlaylist),
            ("\r\n#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n", .hlsPlaylist),
            ("#EXTM3U\n#EXTINF:-1,Radio\nhttp://host/a.mp3\n", nil),  // a plain M3U is Reel's to read
            ("<!DOCTYPE html><html><head>", .webPage),
            ("<!doctype HTML>", .webPage),
            ("<html lang=\"en\">", .webPage),
            ("<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"><html>", .webPage),
            ("  <HEAD><title>x</title>", .webPage),
            ("<SAMI><HEAD>", nil),  // a real SAMI subtitle file is not a web page
            ("<?xml version=\"1.0\"?><playlist xmlns=\"http://xspf.org/ns/0/\">", nil),
            ("WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", nil),
            ("", nil),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(ContentSniff.kind(of: Array(text.utf8)), expected, text)
        }
        let mp4: [UInt8] = [0, 0, 0, 0x20] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 64)
        XCTAssertNil(ContentSniff.kind(of: mp4))
        XCTAssertNil(ContentSniff.kind(of: [UInt8](repeating: UInt8(ascii: "<"), count: 10_000)), "a run of '<' ends")
    }

    /// The guard's refusal (`reel_content_guard.h`) becomes a typed error that says what it was.
    func testTheGuardsRefusalIsATypedError() {
        for content in SniffedContent.allCases {
            let error = ErrorMapper.map(domain: "gst-stream-error-quark", code: 5, message: "reel-content-guard: \(content.rawValue)", debug: nil,
                                        context: .init(uri: "http://host/watch?v=1"))
            XCTAssertEqual(error.kind, .unsupportedFormat)
            XCTAssertEqual(error.refusedContent, content)
        }
        XCTAssertTrue(ErrorMapper.refusedMessage(.webPage).contains("web page"))
        XCTAssertNil(ErrorMapper.map(domain: "gst-stream-error-quark", code: 5, message: "reel-content-guard: 99", debug: nil, context: .init(uri: nil)).refusedContent)
    }

    /// A FIFO is never opened (the open would block until a writer came), nor a folder.
    func testOnlyARegularFileIsRead() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reel-sniff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("movie.mp4")
        XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
        XCTAssertNil(ContentSniff.kind(ofFile: fifo.path))
        XCTAssertNil(ContentSniff.kind(ofFile: dir.path))
        let mpd = dir.appendingPathComponent("film.mp4")
        try Data("<MPD type=\"static\">".utf8).write(to: mpd)
        XCTAssertEqual(ContentSniff.kind(ofFile: mpd.path), .dashManifest)
    }
}
