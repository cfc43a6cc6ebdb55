import Foundation
import ReelCore
import XCTest

/// `DASHClock` (ISO/IEC 23009-1 §5.8.4.11, `UTCTiming`): the sources an MPD names, the time each
/// kind of answer says, the offset from a request's middle; and `LiveStream` reading a live
/// window on the server's clock.
final class DASHClockTests: XCTestCase {
    func mpd(_ timings: String, template: String = #"<SegmentTemplate timescale="1" duration="2" media="v-$Number$.m4s"/>"#) -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" timeShiftBufferDepth="PT20S">
          <Period id="0"><AdaptationSet contentType="video"><Representation id="v" bandwidth="800000" height="360">\(template)</Representation></AdaptationSet></Period>
          \(timings)
        </MPD>
        """
    }

    func testSources() {
        let rows: [(name: String, timings: String, expected: [DASHClock.Source])] = [
            ("none", "", []),
            ("http-xsdate with two URLs, in order, then direct",
             #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value=" https://a/t  https://b/t "/><UTCTiming schemeIdUri="urn:mpeg:dash:utc:direct:2014" value="2026-01-01T00:00:10Z"/>"#,
             [.init(scheme: .httpXSDate, values: ["https://a/t", "https://b/t"]), .init(scheme: .direct, values: ["2026-01-01T00:00:10Z"])]),
            ("NTP over UDP and unknown schemes skipped",
             #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:ntp:2014" value="pool.ntp.org"/><UTCTiming schemeIdUri="urn:example:clock" value="x"/><UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-head:2014" value="https://a/"/>"#,
             [.init(scheme: .httpHead, values: ["https://a/"])]),
            ("the 2012 spelling", #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-iso:2012" value="https://a/iso"/>"#,
             [.init(scheme: .httpISO, values: ["https://a/iso"])]),
            ("an empty value is no source", #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value=" "/>"#, []),
        ]
        for row in rows {
            XCTAssertEqual(DASHClock.sources(in: mpd(row.timings)), row.expected, row.name)
        }
        XCTAssertEqual(DASHClock.sources(in: "<MPD"), [], "not XML")
        let timing = #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:http-xsdate:2014" value="https://a/t"/>"#
        XCTAssertEqual(DASHClock.sources(in: mpd(timing).replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#)), [],
                       "a static MPD: its clock is not asked (a VOD start waits for nothing)")
    }

    func testServerTimes() {
        let t = ProgramDate.parse("2026-01-01T00:00:10Z")!.timeIntervalSince1970
        var ntp = Data()
        let ntpSeconds = UInt32(t + 2_208_988_800)
        for shift in [24, 16, 8, 0] { ntp.append(UInt8((ntpSeconds >> UInt32(shift)) & 0xff)) }
        ntp.append(contentsOf: [0x80, 0, 0, 0])  // half a second
        let rows: [(name: String, scheme: DASHClock.Scheme, body: String?, data: Data?, date: String?, expected: Double?)] = [
            ("xs:dateTime with milliseconds", .httpXSDate, "2026-01-01T00:00:10.250Z\n", nil, nil, t + 0.25),
            ("ISO without a fraction", .httpISO, "2026-01-01T00:00:10Z", nil, nil, t),
            ("xs:dateTime without a zone is UTC", .httpXSDate, "2026-01-01T00:00:10", nil, nil, t),
            ("a body that says nothing: the Date header", .httpXSDate, "", nil, "Thu, 01 Jan 2026 00:00:12 GMT", t + 2),
            ("http-head: the Date header", .httpHead, "ignored", nil, "Thu, 01 Jan 2026 00:00:10 GMT", t),
            ("http-head without one", .httpHead, "", nil, nil, nil),
            ("NTP's 64 bits from 1900", .httpNTP, nil, ntp, nil, t + 0.5),
            ("NTP of the wrong size", .httpNTP, "1234", nil, nil, nil),
            ("direct", .direct, "2026-01-01T00:00:10Z", nil, nil, t),
            ("garbage", .httpISO, "<html>", nil, nil, nil),
        ]
        for row in rows {
            let got = DASHClock.serverTime(row.scheme, body: row.data ?? Data((row.body ?? "").utf8), dateHeader: row.date)
            if let expected = row.expected {
                XCTAssertEqual(got?.timeIntervalSince1970 ?? .nan, expected, accuracy: 0.001, row.name)
            } else {
                XCTAssertNil(got, row.name)
            }
        }
    }

    func testTheOffsetIsFromTheRequestsMiddle() {
        let sent = Date(timeIntervalSince1970: 1000)
        XCTAssertEqual(DASHClock.offset(server: Date(timeIntervalSince1970: 971), sent: sent, received: sent.addingTimeInterval(2)), -30, accuracy: 1e-9)
        XCTAssertEqual(DASHClock.offset(server: Date(timeIntervalSince1970: 1000), sent: sent, received: sent), 0, accuracy: 1e-9)
    }

    /// A server 30 s behind: by the desktop's clock the window would reach 30 s past what
    /// exists; on the server's it ends at its now (the demuxer gets the MPD moved onto the
    /// desktop's clock, so its start distance is the same).
    func testALiveWindowIsReadOnTheServersClock() throws {
        let anchor = ProgramDate.parse("2026-01-01T00:00:00Z")!
        let desktopNow = anchor.addingTimeInterval(70.5)  // the server's: 40.5 s
        let text = mpd("")
        let naive = try XCTUnwrap(LiveStream(program: nil).serveMPD(text, now: desktopNow))
        let live = LiveStream(program: nil)
        live.setClockOffset(-30)
        let steered = try XCTUnwrap(live.serveMPD(text, now: desktopNow))
        func end(_ s: LiveWindowSnapshot) -> Date? { s.dates.last.flatMap { $0 }.map { $0.addingTimeInterval(s.durations.last ?? 0) } }
        XCTAssertEqual(end(naive.snapshot)?.timeIntervalSince(anchor), 70, "the desktop's clock: segments that do not exist")
        XCTAssertEqual(end(steered.snapshot)?.timeIntervalSince(anchor), 40, "the server's clock: its newest segment")
        XCTAssertEqual(steered.snapshot.receivedAt, desktopNow, "elapsed time is measured on the desktop's clock")
        XCTAssertEqual(steered.delay, naive.delay, accuracy: 1e-9, "the same distance from the edge")
        XCTAssertEqual(live.snapshot?.durations.count, 10, "20 s of depth")
    }

    func testTheClockIsAskedOnceThenAgainAfterThirtySecondsUntilMeasured() {
        let live = LiveStream(program: nil)
        let t = Date()
        XCTAssertTrue(live.shouldAskClock(at: t))
        XCTAssertFalse(live.shouldAskClock(at: t.addingTimeInterval(10)), "not again at once")
        XCTAssertTrue(live.shouldAskClock(at: t.addingTimeInterval(31)), "a source that failed is asked again")
        live.setClockOffset(1)
        XCTAssertFalse(live.shouldAskClock(at: t.addingTimeInterval(100)), "measured: not asked again")
    }
}
