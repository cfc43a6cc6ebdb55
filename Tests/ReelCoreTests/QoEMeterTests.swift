import ReelCore
import XCTest

/// What a QA run asserts on, counted from one item's events: startup, stalls, switches, frames.
final class QoEMeterTests: XCTestCase {
    func testStartupStallsAndSwitches() {
        var m = QoEMeter()
        m.loaded(at: 100)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.loading), at: 100)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 20)), at: 100.1)  // before it first played: startup, not a stall
        m.firstFrame(at: 100.4)
        m.rendition(0)
        m.timeControl(.playing, at: 100.5)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 40)), at: 105)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 70)), at: 105.5)  // the same stall
        m.rendition(0)
        m.timeControl(.playing, at: 107)
        m.rendition(1)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.seeking), at: 110)  // a seek is not a stall
        m.timeControl(.paused, at: 111)
        m.timeControl(.playing, at: 112)
        m.timeControl(.waitingToPlayAtSpecifiedRate(.noNetwork), at: 120)
        m.firstFrame(at: 125)  // only the first counts
        let now = m.snapshot(at: 121)
        XCTAssertEqual(now.startupSeconds ?? -1, 0.4, accuracy: 1e-9)
        XCTAssertEqual(now.stalls, 2)
        XCTAssertEqual(now.stallSeconds, 3, accuracy: 1e-9, "2 s, and 1 s of the one under way")
        XCTAssertEqual(now.renditionSwitches, 1)
        m.timeControl(.paused, at: 122)  // the user paused during the stall: it ends there
        XCTAssertEqual(m.snapshot(at: 130).stallSeconds, 4, accuracy: 1e-9)

        m.loaded(at: 200)
        XCTAssertEqual(m.snapshot(at: 201), PlaybackQoE(), "a new item starts from nothing")
    }

    func testTheJSON() {
        var m = QoEMeter()
        m.loaded(at: 0)
        m.firstFrame(at: 0.25)
        var q = m.snapshot(at: 1)
        (q.renderedFrames, q.droppedFrames) = (10, 1)
        XCTAssertEqual(q.json.serialized(),
                       #"{"droppedFrames":1,"renderedFrames":10,"stalls":0,"stallSeconds":0.0,"startupSeconds":0.25,"renditionSwitches":0,"#
                       + #""playSeconds":0.0,"droppedPercent":9.09,"rebufferingPercent":null,"timeWeightedBitrate":null,"topBitrate":null,"bitratePercent":null}"#,
                       "the ratios are null until they have a basis (nothing played, no renditions)")
    }
}
