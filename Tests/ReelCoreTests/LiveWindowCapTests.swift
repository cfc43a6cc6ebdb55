import Foundation
@testable import ReelCore
import XCTest

/// The newest segments of a live playlist, at most `LiveWindowCap.maximumSegments` (issue 28,
/// item 9): what is cut moves the sequence numbers, and what it set for the first segment kept
/// (keys, map, date, a byte range's offset) is written before it, so the playlist the engine is
/// given parses to the very same newest segments.
final class LiveWindowCapTests: XCTestCase {
    private func live(_ count: Int, header: String = "", every: (Int) -> String = { _ in "" }) -> String {
        var out = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:100\n" + header
        for i in 0..<count { out += every(i) + "#EXTINF:2.000,\nseg\(i).ts\n" }
        return out
    }

    func testWithinTheCapNothingChanges() {
        for text in [live(5), live(5) + "#EXT-X-ENDLIST\n", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"] {
            XCTAssertEqual(LiveWindowCap.cap(text, maximumSegments: 5), .init(text: text, dropped: 0))
        }
        // A closed playlist is parsed once: never cut, however long.
        let vod = live(20) + "#EXT-X-ENDLIST\n"
        XCTAssertEqual(LiveWindowCap.cap(vod, maximumSegments: 5).dropped, 0)
    }

    func testTheNewestSegmentsAreKeptWithTheirSequenceNumbers() throws {
        let text = live(20, every: { $0 % 7 == 3 ? "#EXT-X-DISCONTINUITY\n" : "" })
        let capped = LiveWindowCap.cap(text, maximumSegments: 5)
        XCTAssertEqual(capped.dropped, 15)
        let before = try XCTUnwrap(HLSPlaylist.parse(text).media), after = try XCTUnwrap(HLSPlaylist.parse(capped.text).media)
        XCTAssertEqual(after.segments.map(\.uri), before.segments.suffix(5).map(\.uri))
        XCTAssertEqual(after.mediaSequence, 115)
        // Discontinuities at 3 and 10 were cut (17 is kept): the sequence says 2 more.
        XCTAssertEqual(after.discontinuitySequence, 2)
        XCTAssertEqual(after.segments.map(\.discontinuity), before.segments.suffix(5).map(\.discontinuity))
    }

    func testWhatTheCutSegmentsSetIsWrittenForTheFirstKept() throws {
        let text = live(12, header: "#EXT-X-PROGRAM-DATE-TIME:2026-11-26T10:00:00.000Z\n", every: { i in
            var tags = ""
            if i == 0 { tags += "#EXT-X-MAP:URI=\"init0.mp4\"\n" }
            if i == 4 { tags += "#EXT-X-KEY:METHOD=AES-128,URI=\"k4\"\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"skd://x\",KEYFORMAT=\"com.apple.streamingkeydata\"\n" }
            if i == 6 { tags += "#EXT-X-KEY:METHOD=AES-128,URI=\"k6\"\n" }
            return tags
        })
        let capped = LiveWindowCap.cap(text, maximumSegments: 3)
        let after = try XCTUnwrap(HLSPlaylist.parse(capped.text).media)
        XCTAssertEqual(after.segments.map(\.uri), ["seg9.ts", "seg10.ts", "seg11.ts"])
        XCTAssertTrue(capped.text.contains("#EXT-X-MAP:URI=\"init0.mp4\""), capped.text)
        XCTAssertTrue(capped.text.contains("URI=\"k6\""), "the newest key of its format")
        XCTAssertFalse(capped.text.contains("URI=\"k4\""), "an older key of the same format is not")
        XCTAssertTrue(capped.text.contains("skd://x"), "another format's key still applies")
        // seg0 started at 10:00:00, nine 2 s segments were cut: seg9 starts at 10:00:18.
        let date = try XCTUnwrap(after.segments.first?.programDateTime)
        XCTAssertEqual(ProgramDate.parse(date), ProgramDate.parse("2026-11-26T10:00:18.000Z"))
    }

    func testAnImpliedByteRangeOffsetIsMadeExplicit() throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-VERSION:4\n"
        for i in 0..<6 { text += "#EXTINF:2,\n#EXT-X-BYTERANGE:1000\(i == 0 ? "@0" : "")\nall.ts\n" }
        let capped = LiveWindowCap.cap(text, maximumSegments: 2)
        XCTAssertEqual(capped.dropped, 4)
        let after = try XCTUnwrap(HLSPlaylist.parse(capped.text).media)
        XCTAssertEqual(after.segments.first?.byteRange, HLSByteRange(length: 1000, offset: 4000))
        XCTAssertEqual(after.mediaSequence, 4, "no MEDIA-SEQUENCE before: 0 + 4")
    }

    func testSequencesTheParserWouldRefuseAreLeftToIt() {
        let text = live(10).replacingOccurrences(of: "#EXT-X-MEDIA-SEQUENCE:100", with: "#EXT-X-MEDIA-SEQUENCE:9223372036854775807")
        XCTAssertEqual(LiveWindowCap.cap(text, maximumSegments: 3).dropped, 0)
    }

    /// The gateway's editor (every live item's media playlists) applies the cap: the window the
    /// engine and `LiveTimeline` see is the newest 10,000 segments of a 150,000-segment window.
    func testTheLiveEditorPassesOnAtMostTheCap() throws {
        let stream = LiveStream(program: nil)
        stream.markStarted()
        let text = live(150_000)
        let served = stream.serve(text)
        let media = try XCTUnwrap(HLSPlaylist.parse(served).media)
        XCTAssertEqual(media.segments.count, LiveWindowCap.maximumSegments)
        XCTAssertEqual(media.segments.last?.uri, "seg149999.ts")
        XCTAssertEqual(media.mediaSequence, 100 + 150_000 - LiveWindowCap.maximumSegments)
        XCTAssertEqual(stream.snapshot?.durations.count, LiveWindowCap.maximumSegments)
    }
}
