@testable import ReelCore
import XCTest

/// WebVTT segments of HLS subtitle renditions are passed on ending with a blank line (GStreamer
/// 1.22's subparse otherwise loses the cue before the next segment).
final class WebVTTSegmentTests: XCTestCase {
    func testSegmentsEndWithABlankLine() {
        let table: [(String, String?)] = [
            ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n", "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n"),
            ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi", "WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n"),
            ("WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n", "WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n\n"),
            ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n\n", nil),
            ("WEBVTT\r\n\r\n00:01.000 --> 00:02.000\r\nHi\r\n\r\n", nil),
            ("WEBVTT\n\n00:01.000 --> 00:02.000\nHi\n  \n ", nil),
            ("WEBVTT\rX\r\r", nil),
            ("WEBVTT", "WEBVTT\n\n"),
            ("\u{FEFF}WEBVTT\n\nx\n", "\u{FEFF}WEBVTT\n\nx\n\n"),
            ("1\n00:00:01,000 --> 00:00:02,000\nnot WebVTT\n", nil),
            ("", nil),
        ]
        for (input, expected) in table {
            let out = WebVTTSegment.terminated(Array(input.utf8)).map { String(decoding: $0, as: UTF8.self) }
            XCTAssertEqual(out, expected, input.debugDescription)
        }
    }

    func testWebVTTIsToldByExtensionOrType() {
        XCTAssertTrue(WebVTTSegment.isWebVTT(pathExtension: "VTT", contentType: ""))
        XCTAssertTrue(WebVTTSegment.isWebVTT(pathExtension: "webvtt", contentType: ""))
        XCTAssertTrue(WebVTTSegment.isWebVTT(pathExtension: "", contentType: "text/vtt; charset=utf-8"))
        XCTAssertFalse(WebVTTSegment.isWebVTT(pathExtension: "ts", contentType: "video/mp2t"))
    }
}
