import ReelCore
import XCTest

/// The status users see, derived from the intent, the pipeline's state and the item (gst-play.c's
/// split), by table: every row is one situation a player meets.
final class TimeControlTests: XCTestCase {
    private struct Row {
        var name: String
        var intent: PlayIntent
        var pipeline: PipelineTarget = .null
        var item: TimeControl.Item
        var network = false
        var settling = false
        var expected: TimeControlStatus
    }

    func testDerivedStatusByTable() {
        let loaded = TimeControl.Item(loaded: true, prerolled: true)
        let rows: [Row] = [
            Row(name: "no item, play asked", intent: .playing, item: .init(loaded: false), expected: .waitingToPlayAtSpecifiedRate(.noItem)),
            Row(name: "no item, paused", intent: .paused, item: .init(loaded: false), expected: .paused),
            Row(name: "no item, stopped", intent: .stopped, item: .init(loaded: false), expected: .stopped),
            Row(name: "offline beats everything while playing", intent: .playing, pipeline: .playing,
                item: .init(loaded: true, failed: true), network: true, expected: .waitingToPlayAtSpecifiedRate(.noNetwork)),
            Row(name: "offline while paused is paused", intent: .paused, item: loaded, network: true, expected: .paused),
            Row(name: "a failed item is paused", intent: .playing, pipeline: .playing, item: .init(loaded: true, failed: true), expected: .paused),
            Row(name: "stopped", intent: .stopped, pipeline: .ready, item: loaded, expected: .stopped),
            Row(name: "paused", intent: .paused, pipeline: .playing, item: loaded, expected: .paused),
            Row(name: "loading", intent: .playing, pipeline: .paused, item: .init(loaded: true), expected: .waitingToPlayAtSpecifiedRate(.loading)),
            Row(name: "a seek in flight", intent: .playing, pipeline: .playing, item: .init(loaded: true, prerolled: true, seeking: true),
                expected: .waitingToPlayAtSpecifiedRate(.seeking)),
            Row(name: "a landed seek before PLAYING again", intent: .playing, pipeline: .paused, item: loaded, settling: true,
                expected: .waitingToPlayAtSpecifiedRate(.seeking)),
            Row(name: "a landed seek once PLAYING", intent: .playing, pipeline: .playing, item: loaded, settling: true, expected: .playing),
            Row(name: "buffering", intent: .playing, pipeline: .paused, item: .init(loaded: true, prerolled: true, bufferingPercent: 40),
                expected: .waitingToPlayAtSpecifiedRate(.buffering(percent: 40))),
            Row(name: "live never waits for buffering", intent: .playing, pipeline: .playing,
                item: .init(loaded: true, prerolled: true, bufferingPercent: 40, isLive: true), expected: .playing),
            Row(name: "prerolled, pipeline not yet PLAYING", intent: .playing, pipeline: .paused, item: loaded,
                expected: .waitingToPlayAtSpecifiedRate(.loading)),
            Row(name: "playing", intent: .playing, pipeline: .playing, item: loaded, expected: .playing),
        ]
        for row in rows {
            var time = TimeControl()
            time.intent = row.intent
            time.pipelineState = row.pipeline
            time.waitingForNetwork = row.network
            time.settlingAfterSeek = row.settling
            XCTAssertEqual(time.derive(row.item), row.expected, row.name)
        }
    }

    /// Observers are told once per change: the same situation twice is not a second event.
    func testUpdateReportsOnlyChanges() {
        var time = TimeControl()
        XCTAssertEqual(time.status, .paused)
        XCTAssertNil(time.update(item: .init(loaded: true, prerolled: true)), "paused stays paused")
        time.intent = .playing
        XCTAssertEqual(time.update(item: .init(loaded: true)), .waitingToPlayAtSpecifiedRate(.loading))
        XCTAssertNil(time.update(item: .init(loaded: true)))
        time.pipelineState = .playing
        XCTAssertEqual(time.update(item: .init(loaded: true, prerolled: true)), .playing)
        XCTAssertEqual(time.status, .playing)
    }
}
