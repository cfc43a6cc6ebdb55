import ReelCore
import XCTest

/// `StuckBuffering` by table: the same percentage below 100 for `patience` seconds while the user
/// wants to play is a stall, once; any movement, 100 %, a pause or no buffering starts again.
final class StuckBufferingTests: XCTestCase {
    func testTheSamePercentageForTooLongIsAStall() {
        typealias Step = (now: Double, percent: Int?, waiting: Bool, stalled: Bool)
        let rows: [(String, [Step])] = [
            ("0 % for 20 s", [(0, 0, true, false), (10, 0, true, false), (19.9, 0, true, false), (20, 0, true, true), (25, 0, true, false)]),
            ("moving percentages never stall", [(0, 10, true, false), (15, 20, true, false), (30, 30, true, false), (45, 40, true, false)]),
            ("100 % is not buffering", [(0, 100, true, false), (30, 100, true, false)]),
            ("not buffering", [(0, nil, true, false), (30, nil, true, false)]),
            ("paused by the user: the wait is the user's", [(0, 0, false, false), (30, 0, false, false)]),
            ("a pause in between starts again", [(0, 0, true, false), (15, 0, false, false), (16, 0, true, false), (35, 0, true, false), (36, 0, true, true)]),
        ]
        // A position watched the same way: standing still for 20 s while playing is a stall.
        var position = StuckBuffering(patience: 20)
        XCTAssertFalse(position.observe(value: 4.0, waiting: true, now: 0))
        XCTAssertFalse(position.observe(value: 4.0, waiting: true, now: 19))
        XCTAssertTrue(position.observe(value: 4.0, waiting: true, now: 20))
        XCTAssertFalse(position.observe(value: 4.5, waiting: true, now: 21))
        XCTAssertFalse(position.observe(value: 5.0, waiting: true, now: 45), "it moved")
        for (name, steps) in rows {
            var watch = StuckBuffering(patience: 20)
            for step in steps {
                XCTAssertEqual(watch.observe(percent: step.percent, waiting: step.waiting, now: step.now), step.stalled, "\(name) at \(step.now)")
            }
        }
    }
}
