import ReelCore
import XCTest

/// gst-play.c's buffering rule and the progress ticker.
final class PlaybackPolicyTests: XCTestCase {
    func testBufferingRule() {
        typealias D = BufferingRule.Decision
        let table: [(PlayIntent, Int?, Bool, D)] = [
            (.playing, nil, false, D(target: .playing, timeControl: .playing)),
            (.playing, 40, false, D(target: .paused, timeControl: .waitingToPlayAtSpecifiedRate(.buffering(percent: 40)))),
            (.playing, 100, false, D(target: .playing, timeControl: .playing)),
            (.playing, 40, true, D(target: .playing, timeControl: .playing)),  // never pause live
            (.paused, 40, false, D(target: .paused, timeControl: .paused)),
            (.paused, nil, true, D(target: .paused, timeControl: .paused)),
            (.stopped, nil, false, D(target: .ready, timeControl: .paused)),
        ]
        for (intent, percent, live, expected) in table {
            XCTAssertEqual(BufferingRule.decide(intent: intent, percent: percent, isLive: live), expected, "\(intent) \(String(describing: percent)) live=\(live)")
        }
    }

    func testTickerOnlyWhileTimeAdvances() {
        var t = ProgressTicker()
        XCTAssertEqual(t.advance(to: 0.0), [.fine])
        XCTAssertEqual(t.advance(to: 0.0), [])
        XCTAssertEqual(t.advance(to: 0.5), [.fine])
        XCTAssertEqual(t.advance(to: 0.4), [], "never backwards between seeks")
        XCTAssertEqual(t.advance(to: 1.1), [.fine, .second])
        XCTAssertEqual(t.advance(to: 9.9), [.fine, .second])
        XCTAssertEqual(t.advance(to: 10.05), [.fine, .second, .tenSeconds])
        t.reset(at: 3)
        XCTAssertEqual(t.advance(to: 3.2), [.fine], "after a seek, ticks start from the new position")
    }

    func testTickerBackwards() {
        var t = ProgressTicker()
        t.reset(at: 5.5, direction: -1)
        XCTAssertEqual(t.advance(to: 5.2), [.fine])
        XCTAssertEqual(t.advance(to: 4.9), [.fine, .second])
        XCTAssertEqual(t.advance(to: 5.0), [])
    }
}
