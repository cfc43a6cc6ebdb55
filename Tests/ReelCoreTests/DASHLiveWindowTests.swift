import Foundation
import ReelCore
import XCTest

/// `DASHLiveWindow`: a dynamic MPD's window at a given time, by table (ISO/IEC 23009-1 §5.3.9.5.3:
/// a segment is available from availabilityStartTime + PeriodStart + its end, within
/// timeShiftBufferDepth of now).
final class DASHLiveWindowTests: XCTestCase {
    let anchor = ProgramDate.parse("2026-01-01T00:00:00Z")!

    func mpd(_ attributes: String = #"timeShiftBufferDepth="PT10S""#, period: String = "", template: String) -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="2026-01-01T00:00:00Z" \(attributes)>
          <Period id="0" \(period)>
            <AdaptationSet contentType="audio"><Representation id="a" bandwidth="64000">
              <SegmentTemplate timescale="1" duration="4" media="a-$Number$.m4s"/></Representation></AdaptationSet>
            <AdaptationSet contentType="video"><Representation id="v" bandwidth="800000" width="640" height="360">
              \(template)</Representation></AdaptationSet>
          </Period>
        </MPD>
        """
    }

    struct Row {
        var name: String
        var text: String
        var at: Double
        var first: Int?
        var durations: [Double] = []
        var firstDate: Double?
        var streamTime: Double?
        var holdBack: Double?
        var target: Double?
    }

    func testWindows() {
        let timeline = #"<SegmentTemplate timescale="1" startNumber="1" media="v-$Time$.m4s"><SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline></SegmentTemplate>"#
        let rows: [Row] = [
            Row(name: "a timeline repeating to now, within the depth (video, not the audio set before it)", text: mpd(template: timeline), at: 31,
                first: 11, durations: [2, 2, 2, 2, 2], firstDate: 20, streamTime: 20, holdBack: 10, target: 2),
            Row(name: "a duration template numbered by the clock", text: mpd(#"timeShiftBufferDepth="PT8S""#,
                template: #"<SegmentTemplate timescale="1" duration="2" startNumber="5" media="v-$Number$.m4s"/>"#), at: 21.5,
                first: 11, durations: [2, 2, 2, 2], firstDate: 12, streamTime: 12, holdBack: 10, target: 2),
            Row(name: "a Period that starts later, a timescale and a presentationTimeOffset",
                text: mpd(#"suggestedPresentationDelay="PT6S" maxSegmentDuration="PT2.5S""#, period: #"start="PT100S""#,
                          template: #"<SegmentTemplate timescale="1000" presentationTimeOffset="5000" media="v-$Time$.m4s"><SegmentTimeline><S t="5000" d="2000" r="2"/><S d="1000"/></SegmentTimeline></SegmentTemplate>"#),
                at: 110, first: 1, durations: [2, 2, 2, 1], firstDate: 100, streamTime: 100, holdBack: 7.5, target: 2.5),
            Row(name: "segments not yet ended are not in the window", text: mpd(template: timeline), at: 5.9,
                first: 1, durations: [2, 2], firstDate: 0, streamTime: 0, holdBack: 10, target: 2),
            Row(name: "without timeShiftBufferDepth: back to the Period's start", text: mpd("", template: timeline), at: 8,
                first: 1, durations: [2, 2, 2, 2], firstDate: 0, streamTime: 0, holdBack: 10, target: 2),
            Row(name: "before the first segment has ended: no window", text: mpd(template: timeline), at: 1, first: nil),
            Row(name: "a static MPD: no window", text: mpd(template: timeline).replacingOccurrences(of: #"type="dynamic""#, with: #"type="static""#), at: 30, first: nil),
            Row(name: "no availabilityStartTime: no window",
                text: mpd(template: timeline).replacingOccurrences(of: #"availabilityStartTime="2026-01-01T00:00:00Z""#, with: ""), at: 30, first: nil),
            Row(name: "an availabilityStartTime without a zone is UTC",
                text: mpd(template: timeline).replacingOccurrences(of: "00:00:00Z", with: "00:00:00"), at: 31,
                first: 11, durations: [2, 2, 2, 2, 2], firstDate: 20, streamTime: 20, holdBack: 10, target: 2),
            Row(name: "not XML", text: "<MPD", at: 30, first: nil),
        ]
        for row in rows {
            let snapshot = DASHLiveWindow.snapshot(row.text, now: anchor.addingTimeInterval(row.at))
            guard let first = row.first else {
                XCTAssertNil(snapshot, row.name)
                continue
            }
            guard let s = snapshot else {
                XCTFail("no window: \(row.name)")
                continue
            }
            XCTAssertEqual(s.firstSequence, first, row.name)
            XCTAssertEqual(s.durations, row.durations, row.name)
            XCTAssertEqual(s.dates.first??.timeIntervalSince(anchor), row.firstDate, row.name)
            XCTAssertEqual(s.firstSegmentStreamTime, row.streamTime, row.name)
            XCTAssertEqual(s.holdBack, row.holdBack, row.name)
            XCTAssertEqual(s.targetDuration, row.target, row.name)
            XCTAssertFalse(s.hasEndList, row.name)
            XCTAssertEqual(s.safeDistance.rule, "hold-back", row.name)
        }
    }

    /// Where a live MPD starts (written into the MPD the gateway serves): its suggestion, at
    /// least three segments; without one, dashdemux2's 10 s, at least as much.
    func testStartDistance() {
        let rows: [(Double?, Double, Double, String)] = [
            (2, 2, 6, "ffmpeg suggests one segment: three"),
            (20, 2, 20, "a longer suggestion is kept"),
            (nil, 2, 10, "none: dashdemux2's 10 s"),
            (nil, 6, 18, "none, long segments: three of them"),
        ]
        for (suggested, target, expected, name) in rows {
            XCTAssertEqual(DASHLiveWindow.startDistance(suggested: suggested, targetDuration: target), expected, name)
        }
    }

    /// A programme on a live window (timeline of 2 s segments, depth 10 s, at 31 s: 20…30 s
    /// listed): a restart's window begins at the programme's first segment, playback at its start,
    /// and the demuxer's start distance is the programme start's (never nearer than the safe one).
    func testAProgrammeSteersTheWindowAndTheStart() throws {
        let text = mpd(template: #"<SegmentTemplate timescale="1" media="v-$Time$.m4s"><SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline></SegmentTemplate>"#)
        let now = anchor.addingTimeInterval(31)
        let window = try XCTUnwrap(DASHLiveWindow.snapshot(text, now: now))
        func at(_ seconds: Double) -> Date { anchor.addingTimeInterval(seconds) }
        struct Row { var name: String; var program: LiveProgram?; var first: Int; var rule: String; var point: Double; var delay: Double; var problem: Bool }
        let rows: [Row] = [
            Row(name: "no programme: live, the safe distance", program: nil, first: 11, rule: "hold-back", point: 0, delay: 10, problem: false),
            Row(name: "restart inside the window", program: LiveProgram(mode: .restart, start: at(23)), first: 12, rule: "program-start", point: 1, delay: 10, problem: false),
            Row(name: "restart further back", program: LiveProgram(mode: .restart, start: at(20.5)), first: 11, rule: "program-start", point: 0.5, delay: 10.5, problem: false),
            Row(name: "and an offset", program: LiveProgram(mode: .restart, start: at(20.5), startOffset: 1), first: 11, rule: "start-offset", point: 1.5, delay: 10, problem: false),
            Row(name: "a programme start that left the window", program: LiveProgram(mode: .restart, start: at(5)), first: 11, rule: "program-start", point: 0, delay: 11, problem: true),
            Row(name: "a programme not begun", program: LiveProgram(mode: .restart, start: at(40)), first: 11, rule: "hold-back", point: 0, delay: 10, problem: true),
        ]
        for row in rows {
            let steered = DASHLiveWindow.steer(window, program: row.program, now: now)
            XCTAssertEqual(steered.snapshot.firstSequence, row.first, row.name)
            XCTAssertEqual(steered.start?.rule, row.rule, row.name)
            XCTAssertEqual(steered.start?.seconds ?? -1, row.point, accuracy: 1e-9, row.name)
            XCTAssertEqual(steered.delay, row.delay, accuracy: 1e-9, row.name)
            XCTAssertEqual(steered.problem != nil, row.problem, "\(row.name): \(steered.problem ?? "no problem")")
            XCTAssertEqual(steered.snapshot.firstSegmentStreamTime, Double(row.first - 1) * 2, row.name)
            XCTAssertNil(steered.catchup, row.name)
        }
        // Catchup: the programme's segments (22…28: three), closed; the MPD is cut to it.
        let catchup = DASHLiveWindow.steer(window, program: LiveProgram(mode: .catchup, start: at(22.5), end: at(27)), now: now)
        XCTAssertEqual(catchup.snapshot.firstSequence, 12)
        XCTAssertEqual(catchup.snapshot.durations, [2, 2, 2])
        XCTAssertTrue(catchup.snapshot.hasEndList, "closed: played as VOD")
        XCTAssertNil(catchup.problem)
        XCTAssertEqual(catchup.catchup?.start, at(22.5))
        let restartOver = DASHLiveWindow.steer(window, program: LiveProgram(mode: .restart, start: at(22.5), end: at(27)), now: now)
        XCTAssertNotNil(restartOver.catchup, "a restart whose end has passed is a catchup")
        let gone = DASHLiveWindow.steer(window, program: LiveProgram(mode: .catchup, start: at(2), end: at(8)), now: now)
        XCTAssertNil(gone.catchup, "a programme no longer in the window is not cut to")
        XCTAssertNotNil(gone.problem)
    }

    /// The MPD cut to a programme (`DASHCatchup`, through the rewriter): static, from 0, the
    /// programme's segments with their times and numbers; by timeline and by the clock.
    func testACatchupIsTheProgrammeAsAStaticMPD() throws {
        func rewrite(_ text: String, _ start: Double, _ end: Double) throws -> String {
            let out = try DASHManifestRewriter.rewrite(text, base: URL(string: "http://o/live/m.mpd")!, directory: { _ in "http://gw/d/" },
                                                       manifest: { _ in "http://gw/m" }, presentationDelay: 6,
                                                       catchup: (anchor.addingTimeInterval(start), anchor.addingTimeInterval(end), anchor.addingTimeInterval(31)))
            return out.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
                .replacingOccurrences(of: #" xmlns="urn:mpeg:dash:schema:mpd:2011""#, with: "")
                .replacingOccurrences(of: " />", with: "/>").replacingOccurrences(of: " >", with: ">")
        }
        let timeline = try rewrite(mpd(template: #"<SegmentTemplate timescale="10" startNumber="1" media="v-$Number$.m4s"><SegmentTimeline><S t="200" d="20" r="4"/></SegmentTimeline></SegmentTemplate>"#), 22.5, 27)
        XCTAssertTrue(timeline.contains(#"type="static""#), timeline)
        XCTAssertTrue(timeline.contains(#"mediaPresentationDuration="PT6.000S""#), timeline)
        XCTAssertTrue(timeline.contains(#"<S t="220" d="20"/><S t="240" d="20"/><S t="260" d="20"/></SegmentTimeline>"#), timeline)
        XCTAssertTrue(timeline.contains(#"presentationTimeOffset="220""#), timeline)
        XCTAssertTrue(timeline.contains(#"startNumber="2""#), "the number of t=220 (t=200 is 1): \(timeline)")
        // The audio set (4 s segments by the clock) keeps 20…28 s, on the same origin (22 s).
        XCTAssertTrue(timeline.contains(#"<SegmentTemplate timescale="1" duration="4" media="a-$Number$.m4s" presentationTimeOffset="22" startNumber="6"/>"#), timeline)
        XCTAssertFalse(timeline.contains("availabilityStartTime") || timeline.contains("timeShiftBufferDepth") || timeline.contains("suggestedPresentationDelay"), timeline)
        XCTAssertTrue(timeline.contains(#"start="PT0S""#), timeline)
        let byClock = try rewrite(mpd(template: #"<SegmentTemplate timescale="1" duration="2" startNumber="5" media="v-$Number$.m4s"/>"#), 22.5, 27)
        XCTAssertTrue(byClock.contains(#"presentationTimeOffset="22""#), byClock)
        XCTAssertTrue(byClock.contains(#"startNumber="16""#), "number 5 + 11 (22 s / 2 s): \(byClock)")
        XCTAssertTrue(byClock.contains(#"mediaPresentationDuration="PT6.000S""#), byClock)
        let outside = try rewrite(mpd(template: #"<SegmentTemplate timescale="10" media="v-$Number$.m4s"><SegmentTimeline><S t="200" d="20" r="4"/></SegmentTimeline></SegmentTemplate>"#), 100, 110)
        XCTAssertTrue(outside.contains(#"type="dynamic""#), "nothing to cut to: left live: \(outside)")
    }

    /// The window through the live model: the edge is the newest segment's end, epoch-time the
    /// anchor plus the stream time, a refresh whose first segment moved slides.
    func testTheTimelineReadsDASHStreamTime() throws {
        let text = mpd(template: #"<SegmentTemplate timescale="1" media="v-$Time$.m4s"><SegmentTimeline><S t="0" d="2" r="-1"/></SegmentTimeline></SegmentTemplate>"#)
        let live = LiveStream(program: nil)
        live.serveMPD(text, now: anchor.addingTimeInterval(31))
        live.serveMPD(text, now: anchor.addingTimeInterval(33))
        XCTAssertTrue(live.slides, "the first segment moved: a sliding window")
        let snapshot = try XCTUnwrap(live.snapshot)
        let timeline = LiveTimeline(snapshot: snapshot, windowStartStreamTime: try XCTUnwrap(snapshot.firstSegmentStreamTime), now: snapshot.receivedAt,
                                    slides: true)
        XCTAssertEqual(timeline.edge, 10, "five segments from 22 to 32")
        let report = timeline.report(stream: 25)
        XCTAssertEqual(report.position, 3, accuracy: 1e-9)
        XCTAssertEqual(report.behindLiveEdge, 7, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(report.epochTime), anchor.timeIntervalSince1970 + 25, accuracy: 1e-6, "the anchor plus the stream time")
    }
}
