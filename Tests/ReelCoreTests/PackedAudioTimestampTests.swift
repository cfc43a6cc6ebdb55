import XCTest
@testable import ReelCore

/// Bare packed audio given the ID3 timestamp RFC 8216 §3.4 asks for (`PackedAudioTimestamp`), at
/// each segment's start on its playlist's timeline (`HLSSegmentClock`).
final class PackedAudioTimestampTests: XCTestCase {
    func testWhatIsBarePackedAudio() {
        let rows: [([UInt8], Bool, String)] = [
            ([0xFF, 0xF1, 0x50], true, "ADTS AAC (MPEG-4)"), ([0xFF, 0xF9, 0x50], true, "ADTS AAC (MPEG-2)"),
            ([0xFF, 0xFB, 0x90], true, "MP3 frame"), ([0xFF, 0xE3, 0x18], true, "MPEG 2.5 frame"), ([0x0B, 0x77, 0x3F], true, "AC-3 sync word"),
            (Array("ID3".utf8) + [4, 0], false, "already tagged"), ([0x47, 0x40, 0x11], false, "MPEG-TS"),
            ([0, 0, 0, 0x18] + Array("ftyp".utf8), false, "fMP4"), (Array("WEBVTT".utf8), false, "WebVTT"),
            ([0xFF, 0x00], false, "no frame sync"), ([0xFF], false, "too short"), ([], false, "empty"),
        ]
        for (bytes, expected, why) in rows { XCTAssertEqual(PackedAudioTimestamp.isBarePackedAudio(bytes), expected, why) }
    }

    /// The tag byte for byte: ID3v2.4, one PRIV frame, the owner and 8 bytes of 33-bit 90 kHz time.
    func testTheTagIsAnID3PrivTimestamp() {
        let owner = Array("com.apple.streaming.transportStreamTimestamp".utf8) + [0]
        let tag = PackedAudioTimestamp.tag(start: 2.020136)
        XCTAssertEqual(Array(tag[0..<10]), Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, 63], "header: v2.4, no flags, 63 bytes of frames")
        XCTAssertEqual(Array(tag[10..<20]), Array("PRIV".utf8) + [0, 0, 0, 53, 0, 0], "the frame: 45-byte owner and 8 bytes")
        XCTAssertEqual(Array(tag[20..<65]), owner)
        XCTAssertEqual(Array(tag[65...]), [0, 0, 0, 0, 0, 0x02, 0xC6, 0x34], "181812 ticks of 90 kHz")
        XCTAssertEqual(tag.count, 73)
        XCTAssertEqual(Array(PackedAudioTimestamp.tag(start: 0).suffix(8)), [0, 0, 0, 0, 0, 0, 0, 0])
        let wrapped = PackedAudioTimestamp.tag(start: 95_443.8)  // 2^33 / 90 000 s is 95 443.72 s
        XCTAssertEqual(Array(wrapped.suffix(8)).prefix(3), [0, 0, 0], "33 bits: the clock wraps as MPEG-TS's does")
        XCTAssertEqual(PackedAudioTimestamp.syncsafe(200), [0, 0, 1, 72], "seven bits a byte")
    }

    private func playlist(_ sequence: Int, _ durations: [Double]) -> HLSMediaPlaylist {
        HLSMediaPlaylist(targetDuration: 2, mediaSequence: sequence,
                         segments: durations.enumerated().map { HLSSegment(uri: "s\(sequence + $0.offset).aac", duration: $0.element, sequence: sequence + $0.offset) })
    }

    func testEachSegmentStartsWhereTheLastEndedAcrossLiveRefreshes() {
        var clock = HLSSegmentClock()
        let vod = clock.update(playlist(0, [2.02, 2, 2, 0.5]))
        XCTAssertEqual(vod.map(\.uri), ["s0.aac", "s1.aac", "s2.aac", "s3.aac"])
        XCTAssertEqual(vod.map(\.start), [0, 2.02, 4.02, 6.02])
        // The window slides by two: the known ones keep their times, the new ones follow.
        let slid = clock.update(playlist(2, [2, 0.5, 3, 2]))
        XCTAssertEqual(slid.map(\.start), [4.02, 6.02, 6.52, 9.52])
        // Refreshed again with nothing new: the same times.
        XCTAssertEqual(clock.update(playlist(2, [2, 0.5, 3, 2])).map(\.start), [4.02, 6.02, 6.52, 9.52])
        // A refresh that shares nothing with the last (the client fell behind): on from its end.
        XCTAssertEqual(clock.update(playlist(40, [2, 2])).map(\.start), [11.52, 13.52])
        XCTAssertEqual(clock.update(HLSMediaPlaylist()).count, 0)
    }
}
