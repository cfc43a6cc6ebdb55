import Foundation
import ReelCore
import XCTest

/// The flight recorder's pure parts: bodies named by SHA-256, requests matched without their
/// masked tokens, which recorded answer a replayed request gets, and the faults file.
final class RecordingTests: XCTestCase {
    func testSHA256MatchesTheStandardsVectors() {
        XCTAssertEqual(SHA256.hex(Array("".utf8)), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        XCTAssertEqual(SHA256.hex(Array("abc".utf8)), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        XCTAssertEqual(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        XCTAssertEqual(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var split = SHA256()
        for chunk in stride(from: 0, to: 1000, by: 7) { split.update([UInt8](repeating: 0x61, count: min(7, 1000 - chunk))) }
        XCTAssertEqual(split.hex(), SHA256.hex([UInt8](repeating: 0x61, count: 1000)), "fed in pieces, the same digest")
    }

    func testAKeyLeavesOutWhatTheRecordingNeverKept() {
        XCTAssertEqual(RecordingKey.of("http://cdn.example/live/seg1.ts?Authorization=abcdef123456&v=2"), "http://cdn.example/live/seg1.ts?v=2")
        XCTAssertEqual(RecordingKey.of("http://cdn.example/live/seg1.ts?token=***"), "http://cdn.example/live/seg1.ts")
        XCTAssertEqual(RecordingKey.of("http://user:pw@cdn.example/a.m3u8#x"), "http://***@cdn.example/a.m3u8")
        XCTAssertEqual(RecordingKey.of("http://cdn.example/a.m3u8?start=10"), "http://cdn.example/a.m3u8?start=10")
    }

    private func request(_ seq: Int, _ url: String, status: Int? = 200, at asked: Double, playlist: Bool = false, body: String? = nil) -> RecordedRequest {
        RecordedRequest(seq: seq, method: "GET", url: url, status: status, body: body ?? "b\(seq)", asked: asked, firstByte: asked + 0.1, lastByte: asked + 0.5, playlist: playlist)
    }

    func testAPlaylistIsAnsweredByTheVersionLiveThenAndASegmentByItsTurn() {
        let list = "http://o/live.m3u8", seg = "http://o/seg5.ts"
        var index = RecordingIndex([
            request(1, list, at: 0, playlist: true), request(2, seg, status: 503, at: 1), request(3, list, at: 2, playlist: true),
            request(4, seg, at: 3), request(5, list, at: 4, playlist: true),
        ])
        XCTAssertEqual(index.answer(list, at: 0)?.seq, 1)
        XCTAssertEqual(index.answer(list, at: 1.9)?.seq, 3, "a quarter second early is still that version")
        XCTAssertEqual(index.answer(list, at: 3.5)?.seq, 3)
        XCTAssertEqual(index.answer(list, at: 40)?.seq, 5, "after the recording, its last version")
        XCTAssertEqual(index.answer(seg, at: 0)?.status, 503, "the first time asked, as the first time")
        XCTAssertEqual(index.answer(seg, at: 0)?.status, 200, "then as the retry")
        XCTAssertEqual(index.answer(seg, at: 0)?.status, 200, "and so on")
        XCTAssertNil(index.answer("http://o/other.ts", at: 0))
        XCTAssertEqual(index.answer(seg + "?token=***", at: 0)?.seq, 4, "a masked token does not matter")
        var ranged = RecordingIndex([RecordedRequest(seq: 1, method: "GET", url: seg, range: "bytes=0-99", status: 206, asked: 0),
                                     RecordedRequest(seq: 2, method: "GET", url: seg, status: 200, asked: 0)])
        XCTAssertEqual(ranged.answer(seg, range: "bytes=0-99", at: 0)?.status, 206, "matched by range too")
        XCTAssertEqual(ranged.answer(seg, at: 0)?.status, 200)
    }

    /// Past the recording's last request a live playlist ends where the recording did: the
    /// segments it never fetched are left out, #EXT-X-ENDLIST added; nothing else is touched.
    func testALivePlaylistIsClosedWhereTheRecordingEnds() {
        let list = "http://o/hls/live.m3u8"
        let index = RecordingIndex([
            request(1, list, at: 0, playlist: true), request(2, "http://o/hls/seg/4.ts", at: 0.2),
            request(3, "http://o/hls/seg/5.ts", status: 503, at: 1), request(4, list, at: 6, playlist: true),
        ])
        XCTAssertFalse(index.isPastTheEnd(6.2), "the last version is still live a moment after it was asked")
        XCTAssertTrue(index.isPastTheEnd(6.3))
        let live = "#EXTM3U\r\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:2.0,\nseg/3.ts\n#EXTINF:2.0,\nseg/4.ts\n"
            + "#EXT-X-PROGRAM-DATE-TIME:2026-12-03T10:00:10Z\n#EXTINF:2.0,\n/hls/seg/5.ts\n#EXTINF:2.0,\nseg/6.ts\n#EXTINF:2.0,\nseg/7.ts\n"
        XCTAssertEqual(index.closing(live, from: list),
                       "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:3\n#EXTINF:2.0,\nseg/3.ts\n#EXTINF:2.0,\nseg/4.ts\n"
                       + "#EXT-X-PROGRAM-DATE-TIME:2026-12-03T10:00:10Z\n#EXTINF:2.0,\n/hls/seg/5.ts\n#EXT-X-ENDLIST\n",
                       "an early segment never fetched stays (the player started after it); the last ones go")
        XCTAssertEqual(index.closing("#EXTM3U\n#EXTINF:2,\nother/1.ts\n", from: list), "#EXTM3U\n#EXTINF:2,\nother/1.ts\n#EXT-X-ENDLIST\n",
                       "none fetched: closed as it is")
        XCTAssertNil(index.closing(live + "#EXT-X-ENDLIST\n", from: list), "a VOD is left alone")
        XCTAssertNil(index.closing("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n", from: list), "a multivariant playlist too")
        XCTAssertNil(index.closing("<MPD type=\"dynamic\"/>", from: "http://o/live.mpd"), "an MPD too")
    }

    /// ffmpeg's live MPD (its shape, 2 s segments numbered from 4 in a timeline).
    private let liveMPD = """
        <?xml version="1.0" encoding="utf-8"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="dynamic" minimumUpdatePeriod="PT2S" suggestedPresentationDelay="PT2S" availabilityStartTime="2026-12-04T00:47:13.195Z" publishTime="2026-12-04T00:47:31.190Z" timeShiftBufferDepth="PT12.0S" maxSegmentDuration="PT2.0S" minBufferTime="PT4.0S">
        	<Period id="0" start="PT0.0S">
        		<AdaptationSet id="0" contentType="video">
        			<Representation id="0" mimeType="video/mp4" bandwidth="300000">
        				<SegmentTemplate timescale="12800" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="4">
        					<SegmentTimeline>
        						<S t="76800" d="25600" r="5" />
        					</SegmentTimeline>
        				</SegmentTemplate>
        			</Representation>
        		</AdaptationSet>
        		<AdaptationSet id="1" contentType="audio">
        			<Representation id="1" mimeType="audio/mp4" bandwidth="64000">
        				<SegmentTemplate timescale="48000" initialization="init-stream$RepresentationID$.m4s" media="chunk-stream$RepresentationID$-$Number%05d$.m4s" startNumber="4">
        					<SegmentTimeline>
        						<S t="288000" d="96000" r="5" />
        					</SegmentTimeline>
        				</SegmentTemplate>
        			</Representation>
        		</AdaptationSet>
        	</Period>
        	<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="http://o/time"/>
        </MPD>
        """

    /// A replayed live MPD says the recorded wall clock (its own UTCTiming, whose replayed
    /// answers would be old, replaced by a `direct` one); past the recording's end it is closed
    /// as a packager closes an event: static, each stream's timeline ending with the last segment
    /// the recording fetched of it, `mediaPresentationDuration` at the latest.
    func testALiveMPDIsReplayedOnTheRecordedClockAndClosedWhereTheRecordingEnds() throws {
        let mpd = "http://o/dash/manifest.mpd"
        // Video fetched to segment 7 (ends at 14 s), audio to 6 (ends at 12 s); segment 8 of the video answered 404.
        let index = RecordingIndex([request(1, mpd, at: 0, playlist: true)]
            + (4...7).map { request($0 + 1, "http://o/dash/chunk-stream0-0000\($0).m4s", at: 0.1) }
            + (4...6).map { request($0 + 10, "http://o/dash/chunk-stream1-0000\($0).m4s", at: 0.1) }
            + [request(20, "http://o/dash/chunk-stream0-00008.m4s", status: nil, at: 0.2)])
        let clock = Date(timeIntervalSince1970: 1_796_345_300.5)
        // Foundation's XML writer breaks elements over lines: compared with the spaces squeezed.
        let squeezed = { (text: String) in
            text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).replacingOccurrences(of: " >", with: ">")
                .replacingOccurrences(of: " />", with: "/>").replacingOccurrences(of: #" xmlns="urn:mpeg:dash:schema:mpd:2011""#, with: "")
        }
        let live = squeezed(try XCTUnwrap(index.replayedMPD(liveMPD, from: mpd, wallClock: clock, closing: false)))
        XCTAssertTrue(live.contains(#"type="dynamic""#), live)
        XCTAssertTrue(live.contains(#"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-12-04T00:48:20.500Z"/>"#), live)
        XCTAssertFalse(live.contains("http-xsdate"), "the MPD's own clock goes")
        XCTAssertTrue(live.contains(#"<S t="76800" d="25600" r="5"/>"#), "nothing else changes while live: \(live)")
        XCTAssertEqual(DASHClock.sources(in: live).map(\.scheme), [.direct], "the gateway reads it as any direct clock")

        let closed = try XCTUnwrap(index.replayedMPD(liveMPD, from: mpd, wallClock: clock, closing: true))
        XCTAssertTrue(closed.contains(#"type="static""#), closed)
        XCTAssertTrue(closed.contains(#"mediaPresentationDuration="PT14.000S""#), "the end of video segment 7 (4 starts at 6 s): \(closed)")
        for gone in ["minimumUpdatePeriod", "timeShiftBufferDepth", "UTCTiming"] { XCTAssertFalse(closed.contains(gone), gone) }
        let segments = DASHSegments.list(closed, base: URL(string: mpd)!)
        XCTAssertEqual(segments.map { $0.media.map(\.lastPathComponent) }, [
            (4...7).map { "chunk-stream0-0000\($0).m4s" }, (4...6).map { "chunk-stream1-0000\($0).m4s" },
        ], "each stream to the last segment recorded of it, none after")
        XCTAssertNil(index.replayedMPD(closed, from: mpd, wallClock: clock, closing: true), "a static MPD is left alone")
        XCTAssertNil(RecordingIndex([]).replayedMPD("#EXTM3U\n", from: mpd, wallClock: clock, closing: true))
    }

    func testTheFaultsFileParsesAndItsMistakesNameTheirLine() throws {
        let faults = try RecordingFaults(parsing: "# a comment\nsegment 12 status 503\nsegment 12 ok\nsegment 7 stall 4\nrequest 31 status 404  # trailing\nplaylist refresh 5 stale\n")
        XCTAssertEqual(faults.changes.map(\.target), [.segment(12), .segment(12), .segment(7), .request(31), .playlistRefresh(5)])
        XCTAssertEqual(faults.changes.map(\.change), [.status(503), .ok, .stall(4), .status(404), .stale])
        for (text, words) in [("segment 0 status 503", "line 1: a number from 1"), ("\nsegment x ok", "line 2: a number"), ("segment 3 status 99", "100 to 599"),
                              ("segment 3 stale", "only a playlist refresh"), ("playlist 3 stale", "playlist refresh N"), ("segment 3 ok now", "expected status CODE, ok"),
                              ("frame 3 ok", "expected segment"), ("segment 3 stall -1", "seconds")] {
            XCTAssertThrowsError(try RecordingFaults(parsing: text), text) { XCTAssertTrue("\($0)".contains(words), "\(text): \($0)") }
        }
    }

    func testFaultsAreAppliedWhereTheySay() throws {
        let list = "http://o/live.m3u8"
        let recorded = [request(1, list, at: 0, playlist: true, body: "v1"), request(2, "http://o/s1.ts", at: 0.5),
                        request(3, "http://o/s2.ts", status: 503, at: 1), request(4, list, at: 2, playlist: true, body: "v2"),
                        request(5, "http://o/s2.ts", at: 2.5), request(6, list, at: 4, playlist: true, body: "v3")]
        let faults = try RecordingFaults(parsing: "segment 1 status 404\nrequest 3 ok\nsegment 4 stall 4\nplaylist refresh 2 stale\nrequest 99 ok\n")
        let (out, notes) = faults.applying(to: recorded)
        XCTAssertEqual(out[1].status, 404)
        XCTAssertNil(out[1].body)
        XCTAssertEqual(out[2].status, 200, "the 503 answered as its URL next answered")
        XCTAssertEqual(out[2].body, "b5")
        XCTAssertEqual(out[2].asked, 1, "at its own time")
        XCTAssertEqual(out[2].latency, 0.1, accuracy: 1e-9)
        XCTAssertEqual(out[5].body, "v2", "the second refresh serves the version before it")
        XCTAssertEqual(out[4].latency, 0.1, accuracy: 1e-9, "segment 4 does not exist: nothing changed")
        XCTAssertEqual(notes, ["segment 4: the recording has no such request; nothing changed", "request 99: the recording has no such request; nothing changed"])
        let stalled = try RecordingFaults(parsing: "segment 3 stall 4").applied(to: recorded)
        XCTAssertEqual(stalled[4].latency, 4.1, accuracy: 1e-9, "the third segment asked waits 4 s more for its first byte")
        XCTAssertEqual(stalled[4].transfer, 0.4, accuracy: 1e-9, "at the same pace")
        let never = try RecordingFaults(parsing: "request 3 ok").applying(to: [recorded[2]])
        XCTAssertEqual(never.requests[0].status, 503)
        XCTAssertEqual(never.notes, ["request 3 ok: http://o/s2.ts never answered well in the recording; left as recorded"])
    }

    /// The recorder's second request of a failed segment (`probe`) is never served as itself nor
    /// counted among the player's requests; `ok` serves it in the failure's place.
    func testAProbeIsServedOnlyWhereTheFaultIsRemoved() throws {
        let list = "http://o/live.m3u8", failed = "http://o/s7.ts"
        var probe = request(4, failed, at: 3.5)
        probe.probe = true
        let recorded = [request(1, list, at: 0, playlist: true), request(2, failed, status: 503, at: 1.5), request(3, "http://o/s8.ts", at: 3.4),
                        probe, request(5, list, at: 4, playlist: true)]
        var index = RecordingIndex(recorded)
        XCTAssertEqual(index.requests.map(\.seq), [1, 2, 3, 5])
        XCTAssertEqual(index.end, 4)
        XCTAssertEqual(index.answer(failed, at: 1.5)?.status, 503)
        XCTAssertEqual(index.answer(failed, at: 5)?.status, 503, "asked again, still the player's own answer")
        let fixed = try RecordingFaults(parsing: "segment 1 ok").applying(to: recorded)
        XCTAssertEqual(fixed.notes, [])
        var replay = RecordingIndex(fixed.requests)
        let served = try XCTUnwrap(replay.answer(failed, at: 1.5))
        XCTAssertEqual([served.status, served.seq], [200, 2], "the probe's answer, at the failure's turn")
        XCTAssertEqual(served.asked, 1.5)
        XCTAssertNil(served.probe)
        let second = try RecordingFaults(parsing: "segment 2 status 404").applied(to: recorded)
        XCTAssertEqual(second.first { $0.seq == 3 }?.status, 404, "segments are counted without the probe")
        XCTAssertEqual(second.first { $0.seq == 4 }?.status, 200)
        var failedProbe = probe
        failedProbe.status = 503
        let summary = RecordingSummary(manifest: RecordingManifest(started: 0, inputs: []), requests: Array(recorded.dropLast(2)) + [failedProbe, recorded[4]])
        XCTAssertEqual([summary.requests, summary.probes], [4, 1], "reel inspect shows the recorder's probe apart")
        XCTAssertEqual(summary.faults.map(\.seq), [2], "a probe that failed again is no fault of the session")
        XCTAssertTrue(summary.text.contains("1 failed segment(s) asked again by the recorder"), summary.text)
    }

    func testASummaryNamesTheFaultsAndTheSpan() {
        let r = [request(1, "http://o/live.m3u8", at: 0, playlist: true), request(2, "http://o/s1.ts", status: 503, at: 1),
                 RecordedRequest(seq: 3, method: "GET", url: "http://o/s2.ts", status: 200, bytes: 10, asked: 2, firstByte: 6.5, lastByte: 7),
                 RecordedRequest(seq: 4, method: "GET", url: "http://o/s3.ts", status: nil, error: "connection reset", asked: 8)]
        let s = RecordingSummary(manifest: RecordingManifest(started: 0, inputs: ["http://o/live.m3u8?token=abcdef123456"]), requests: r, eventLines: 3)
        XCTAssertEqual(s.requests, 4)
        XCTAssertEqual(s.playlistRequests, 1)
        XCTAssertEqual(s.span, 8)
        XCTAssertEqual(s.faults.map(\.what), ["HTTP 503", "slow: 4.5 s to the first byte", "no answer: connection reset"])
        XCTAssertEqual(s.manifest.inputs, ["http://o/live.m3u8?token=***"], "the inputs redacted")
        XCTAssertTrue(s.text.contains("#3  slow: 4.5 s"), s.text)
    }

    func testSizes() {
        XCTAssertEqual(ByteSize.parse("1048576"), 1_048_576)
        XCTAssertEqual(ByteSize.parse("500k"), 512_000)
        XCTAssertEqual(ByteSize.parse("64M"), 64 << 20)
        XCTAssertEqual(ByteSize.parse("1.5G"), 3 << 29)
        for bad in ["", "M", "-1", "lots", "1T", "1e30G"] { XCTAssertNil(ByteSize.parse(bad), bad) }
    }
}
