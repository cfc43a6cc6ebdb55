import Foundation
@testable import ReelApp
import ReelCore
import ReelGLib
import ReelTestSupport
import XCTest

/// What waits for the first frame (MPRIS, the portal's drop targets) runs once: at the first
/// frame, an error or the end, else after its delay; never after `cancel`.
final class AfterFirstFrameTests: XCTestCase {
    func testItRunsOnceOnTheEventsThatMeanPlaybackStartedOrCannot() {
        let error = PlaybackError(kind: .notFound, message: "missing")
        let rows: [(events: [PlayerEvent], runs: Int)] = [
            ([.status(.readyToPlay)], 1),
            ([.error(error)], 1),
            ([.finished(played: 0, failed: 1, reason: .error)], 1),
            ([.status(.readyToPlay), .error(error), .status(.readyToPlay)], 1),
            ([.timeControl(.playing), .warning(error), .duration(2)], 0),
        ]
        onMain {
            for row in rows {
                var runs = 0
                let deferred = AfterFirstFrame(delay: 60) { runs += 1 }
                row.events.forEach(deferred.handle)
                XCTAssertEqual(runs, row.runs, "\(row.events)")
                deferred.cancel()
            }
        }
    }

    func testWithoutAnEventItRunsAfterItsDelayUnlessCancelled() {
        onMain {
            var runs = 0, cancelledRan = false
            let deferred = AfterFirstFrame(delay: 0.05) { runs += 1 }
            let cancelled = AfterFirstFrame(delay: 0.05) { cancelledRan = true }
            cancelled.cancel()
            XCTAssertTrue(GLibMainLoop.run(until: { runs == 1 }, timeout: 3))
            GLibMainLoop.run(until: { false }, timeout: 0.1)
            XCTAssertFalse(cancelledRan)
            deferred.run()
            deferred.handle(.status(.readyToPlay))
            XCTAssertEqual(runs, 1, "once")
        }
    }
}
