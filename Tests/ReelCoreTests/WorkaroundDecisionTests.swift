import ReelCore
import XCTest

/// The decisions of the GStreamer 1.22 workarounds (each type names its bug), by table.
final class WorkaroundDecisionTests: XCTestCase {
    func testPrerollVerdict() {
        let cases: [(Bool, Int, Int, PrerollVerdict)] = [
            (false, 0, 0, .fail),      // the probe cannot open it: damaged
            (true, 0, 0, .restart),    // a good file on a stuck pipeline: a fresh playbin3 first
            (true, 1, 0, .extend),     // then it is only slow
            (true, 1, 4, .extend),
            (true, 1, 5, .fail),       // five more periods at most
            (false, 1, 3, .fail),
        ]
        for (opened, restarts, extensions, expected) in cases {
            XCTAssertEqual(PrerollVerdict.decide(probeOpened: opened, restarts: restarts, extensions: extensions), expected,
                           "opened \(opened), restarts \(restarts), extensions \(extensions)")
        }
    }

    func testEndStallWatch() {
        // (position, duration, now, eligible) readings at timeout 3 s → fired?
        let trace: [(Double, Double?, Double, Bool, Bool)] = [
            (9.0, 10, 0, true, false),     // not within the last half second
            (9.6, 10, 1, true, false),     // starts watching
            (9.6, 10, 2, true, false),
            (9.6, 10, 3.9, true, false),   // 2.9 s still
            (9.6, 10, 4.7, true, true),    // 3.7 s still: stalled
            (9.6, 10, 5, true, false),     // the watch reset; starts again
        ]
        var w = EndStallWatch()
        for (p, d, now, eligible, fired) in trace {
            XCTAssertEqual(w.observe(position: p, duration: d, now: now, timeout: 3, eligible: eligible), fired, "at \(now)")
        }
        var moving = EndStallWatch()
        for (i, now) in [0.0, 2, 4, 6].enumerated() {
            XCTAssertFalse(moving.observe(position: 9.6 + Double(i) * 0.01, duration: 10, now: now, timeout: 3, eligible: true), "moving")
        }
        var paused = EndStallWatch()
        for now in [0.0, 2, 4, 6] { XCTAssertFalse(paused.observe(position: 9.9, duration: 10, now: now, timeout: 3, eligible: false)) }
        var unknown = EndStallWatch()
        for now in [0.0, 5] { XCTAssertFalse(unknown.observe(position: 9.9, duration: nil, now: now, timeout: 3, eligible: true)) }
        var off = EndStallWatch()
        for now in [0.0, 5] { XCTAssertFalse(off.observe(position: 9.9, duration: 10, now: now, timeout: 0, eligible: true)) }
    }

    func testRunAheadFilter() {
        var f = RunAheadFilter()
        XCTAssertTrue(f.believes(1.0, at: 0, rate: 1, live: false))
        XCTAssertTrue(f.believes(1.2, at: 0.2, rate: 1, live: false))
        XCTAssertFalse(f.believes(10.0, at: 0.4, rate: 1, live: false), "a jump to the duration as the data runs out")
        XCTAssertEqual(f.lastPosition, 1.2)
        XCTAssertTrue(f.believes(10.0, at: 6.4, rate: 1, live: false), "a lasting jump is believed as time passes")
        XCTAssertTrue(f.believes(30.0, at: 6.6, rate: 1, live: true), "live: believed as it comes")
        f.reset()
        XCTAssertTrue(f.believes(50, at: 7, rate: 1, live: false), "after a seek, anything")
        XCTAssertTrue(f.believes(55, at: 7.2, rate: 4, live: false) == false, "4x: 0.2 s of wall is 0.8 s (+0.5)")
    }
}

/// `LiveSegmentGap`: which upstream failures the gateway answers as a gap.
final class LiveSegmentGapTests: XCTestCase {
    func testOnlyLiveMediaSegmentsThatFailBecomeGaps() {
        let table: [(Int, HLSURIKind?, Bool, Bool)] = [
            (404, .segment, true, true), (410, .segment, true, true), (500, .segment, true, true), (503, .segment, true, true),
            (404, .segment, false, false), (200, .segment, true, false), (206, .segment, true, false), (416, .segment, true, false),
            (401, .segment, true, false), (403, .segment, true, false), (404, .key, true, false), (404, .map, true, false),
            (404, .variant, true, false), (404, nil, true, false),
        ]
        for (status, kind, live, gap) in table {
            XCTAssertEqual(LiveSegmentGap.answersAsGap(status: status, kind: kind, live: live), gap, "\(status) \(String(describing: kind)) live \(live)")
        }
    }
}
