import ReelCore
import XCTest

/// Events only on change (issue 11), by table: what goes out of a sequence of events.
final class EventDeduplicatorTests: XCTestCase {
    func testRepeatedStatementsAreDroppedAndANewItemStartsAfresh() {
        let info = MediaInfo(width: 640, height: 360, videoCodec: "H.264", audioCodec: "AAC", isSeekable: true)
        let cases: [([PlayerEvent], [PlayerEvent])] = [
            ([.duration(2), .duration(2), .duration(3)], [.duration(2), .duration(3)]),
            ([.mediaInfo(info), .mediaInfo(info)], [.mediaInfo(info)]),
            ([.status(.readyToPlay), .status(.readyToPlay)], [.status(.readyToPlay)]),
            ([.timeControl(.playing), .timeControl(.paused), .timeControl(.paused), .timeControl(.playing)],
             [.timeControl(.playing), .timeControl(.paused), .timeControl(.playing)]),
            // Not a statement: every one goes out.
            ([.playedToEnd, .playedToEnd, .seeked(position: 1), .seeked(position: 1)], [.playedToEnd, .playedToEnd, .seeked(position: 1), .seeked(position: 1)]),
            // A new item: its first duration goes out even when equal to the last item's.
            ([.duration(6), .itemChanged(index: nil, uri: "b", title: nil), .duration(6)],
             [.duration(6), .itemChanged(index: nil, uri: "b", title: nil), .duration(6)]),
        ]
        for (input, expected) in cases {
            var d = EventDeduplicator()
            XCTAssertEqual(input.filter { d.admit($0) }, expected, "\(input)")
        }
    }

    func testBufferingGoesOutInTenPercentSteps() {
        var d = EventDeduplicator()
        let out = (0...100).map { PlayerEvent.buffering(percent: $0) }.filter { d.admit($0) }
        XCTAssertEqual(out, stride(from: 0, through: 100, by: 10).map { .buffering(percent: $0) }, "11 lines, not 101")
        // A new stall reports again from where it is.
        XCTAssertTrue(d.admit(.buffering(percent: 40)))
        XCTAssertFalse(d.admit(.buffering(percent: 45)))
        XCTAssertTrue(d.admit(.buffering(percent: 100)))
    }
}
