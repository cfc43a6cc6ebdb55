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
            // The same track list twice: once; a changed selection goes out.
            ([.tracks([MediaTrack(id: "a0", kind: .audio)], selected: ["a0"], subtitlesShown: false),
              .tracks([MediaTrack(id: "a0", kind: .audio)], selected: ["a0"], subtitlesShown: false),
              .tracks([MediaTrack(id: "a0", kind: .audio)], selected: [], subtitlesShown: false)],
             [.tracks([MediaTrack(id: "a0", kind: .audio)], selected: ["a0"], subtitlesShown: false),
              .tracks([MediaTrack(id: "a0", kind: .audio)], selected: [], subtitlesShown: false)]),
            // Not a statement: every one goes out.
            ([.playedToEnd, .playedToEnd, .seeked(position: 1), .seeked(position: 1)], [.playedToEnd, .playedToEnd, .seeked(position: 1), .seeked(position: 1)]),
            // A new item: its first duration goes out even when equal to the last item's.
            ([.duration(6), .itemChanged(index: nil, uri: "b", title: nil), .duration(6)],
             [.duration(6), .itemChanged(index: nil, uri: "b", title: nil), .duration(6)]),
        ]
        for (input, expected) in cases {
            var d = EventDeduplicator()
            XCTAssertEqual(input.compactMap { d.admit($0) }, expected, "\(input)")
        }
    }

    func testBufferingGoesOutInTenPercentStepsThatOnlyRisePerEpisode() {
        var d = EventDeduplicator()
        let out = (0...100).map { PlayerEvent.buffering(percent: $0) }.compactMap { d.admit($0) }
        XCTAssertEqual(out, stride(from: 0, through: 100, by: 10).map { .buffering(percent: $0) }, "11 lines, not 101")
        XCTAssertNil(d.admit(.buffering(percent: 100)), "a second 100 says nothing")
        // A new stall reports again from where it is, in steps, rising only.
        XCTAssertEqual(d.admit(.buffering(percent: 45)), .buffering(percent: 40))
        XCTAssertNil(d.admit(.buffering(percent: 47)))
        XCTAssertEqual(d.admit(.buffering(percent: 100)), .buffering(percent: 100))
        // hlsdemux2 at a start: the level hovers; the stream says each step once, rising.
        var h = EventDeduplicator()
        let hovering = [28, 30, 29, 30, 28, 31, 39, 40, 38, 52, 49, 100, 100].map { PlayerEvent.buffering(percent: $0) }
        XCTAssertEqual(hovering.compactMap { h.admit($0) }, [20, 30, 40, 50, 100].map { .buffering(percent: $0) })
        // The time control that says "waiting: buffering N %" goes out in the same steps.
        var t = EventDeduplicator()
        let waits = [0, 1, 0, 1, 2, 9, 10, 11, 19, 20, 55, 29, 99].map { PlayerEvent.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: $0))) }
        let admitted = waits.compactMap { t.admit($0) }.compactMap { e -> Int? in
            if case .timeControl(.waitingToPlayAtSpecifiedRate(.buffering(let p))) = e { return p }
            return nil
        }
        XCTAssertEqual(admitted, [0, 10, 20, 50, 90])
        XCTAssertEqual(t.admit(.timeControl(.playing)), .timeControl(.playing))
        XCTAssertEqual(t.admit(.timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 35)))),
                       .timeControl(.waitingToPlayAtSpecifiedRate(.buffering(percent: 30))), "a new wait starts its own episode")
        // A new item starts afresh.
        XCTAssertNotNil(h.admit(.itemChanged(index: nil, uri: "b", title: nil)))
        XCTAssertEqual(h.admit(.buffering(percent: 100)), .buffering(percent: 100))
    }
}
