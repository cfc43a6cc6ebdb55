import Foundation
import ReelCore
import XCTest

/// `LiveTimeline`: stream time onto the window's scale, the edge, the wall clock, seeks.
final class LiveTimelineTests: XCTestCase {
    private let t0 = 1_795_550_400.0

    private func timeline(segments: Int = 6, windowStartStreamTime: Double = 8, dates: Bool = true) -> LiveTimeline {
        let snapshot = LiveWindowSnapshot(firstSequence: 4, durations: Array(repeating: 2, count: segments),
                                          dates: (0..<segments).map { dates ? Date(timeIntervalSince1970: t0 + 2 * Double($0)) : nil },
                                          targetDuration: 2)
        return LiveTimeline(snapshot: snapshot, windowStartStreamTime: windowStartStreamTime)
    }

    func testPositionsAreSecondsFromTheWindowsStart() {
        let t = timeline()
        XCTAssertEqual(t.window, 0...12)
        let table: [(stream: Double, position: Double, behind: Double, epoch: Double?)] = [
            (8, 0, 12, t0),
            (12.5, 4.5, 7.5, t0 + 4.5),
            (20, 12, 0, t0 + 12),
            (5, -3, 15, t0 - 3),   // fallen out: before the window
        ]
        for row in table {
            XCTAssertEqual(t.position(stream: row.stream), row.position, accuracy: 0.000_1)
            XCTAssertEqual(t.behindLiveEdge(stream: row.stream), row.behind, accuracy: 0.000_1)
            XCTAssertEqual(t.epochTime(stream: row.stream) ?? -1, row.epoch ?? -1, accuracy: 0.000_1)
            XCTAssertEqual(t.stream(position: row.position), row.stream, accuracy: 0.000_1)
        }
        XCTAssertTrue(t.hasFallenOut(stream: 5))
        XCTAssertFalse(t.hasFallenOut(stream: 8))
        XCTAssertNil(timeline(dates: false).epochTime(stream: 10), "no PROGRAM-DATE-TIME, no wall clock")
    }

    func testSeeksStayInTheWindowAndTheLiveTargetIsTheSafeDistance() {
        let t = timeline()
        XCTAssertEqual(t.liveTarget, 6, "three target durations before the edge")
        XCTAssertEqual(t.clamp(-5), 0)
        XCTAssertEqual(t.clamp(3), 3)
        XCTAssertEqual(t.clamp(11), 6, "not nearer the edge than the safe distance")
        let report = t.report(stream: 11)
        XCTAssertEqual(report.position, 3)
        XCTAssertEqual(report.behindLiveEdge, 9)
        XCTAssertEqual(report.window, 0...12)
        XCTAssertEqual(report.epochTime ?? 0, t0 + 3, accuracy: 0.000_1)
    }

    func testBetweenRefreshesTheWindowMovesOnInRealTime() {
        let snapshot = timeline().snapshot  // read at `receivedAt`
        let read = snapshot.receivedAt
        let sliding = LiveTimeline(snapshot: snapshot, windowStartStreamTime: 8, now: read.addingTimeInterval(1.5), slides: true)
        XCTAssertEqual(sliding.position(stream: 14), 4.5, accuracy: 0.000_1, "the start moved on 1.5 s: the position is 1.5 s nearer it")
        XCTAssertEqual(sliding.edge, 12, accuracy: 0.000_1, "a sliding window keeps its length")
        XCTAssertEqual(sliding.behindLiveEdge(stream: 14), 7.5, accuracy: 0.000_1, "the edge moved on 1.5 s")
        XCTAssertEqual(sliding.epochTime(stream: 14) ?? 0, t0 + 6, accuracy: 0.000_1, "the frame's own date does not move")
        XCTAssertEqual(sliding.stream(position: sliding.position(stream: 14)), 14, accuracy: 0.000_1)
        let growing = LiveTimeline(snapshot: snapshot, windowStartStreamTime: 8, now: read.addingTimeInterval(1.5), slides: false)
        XCTAssertEqual(growing.position(stream: 14), 6, accuracy: 0.000_1, "an event's start stays")
        XCTAssertEqual(growing.edge, 13.5, accuracy: 0.000_1, "its edge grows")
        XCTAssertEqual(growing.behindLiveEdge(stream: 14), 7.5, accuracy: 0.000_1, "the same distance either way")
        let late = LiveTimeline(snapshot: snapshot, windowStartStreamTime: 8, now: read.addingTimeInterval(30), slides: false)
        XCTAssertEqual(late.edge, 14, accuracy: 0.000_1, "never more than a target duration past the playlist")
    }

    /// Paused 30 s on a sliding window whose playlist the engine stopped refreshing: the origin's
    /// window slid on 30 s, so the position is 30 s nearer its start (then past it), as the
    /// recovery on play reads it; the window keeps its length.
    func testAPausedSlidingWindowSlidesOnWithoutRefreshes() {
        let snapshot = timeline().snapshot
        var paused = LiveTimeline(snapshot: snapshot, windowStartStreamTime: 8, now: snapshot.receivedAt.addingTimeInterval(30), slides: true)
        XCTAssertEqual(paused.position(stream: 14), 4, accuracy: 0.000_1, "playing, at most a target duration")
        paused.heldSlide = 30 - snapshot.targetDuration
        XCTAssertEqual(paused.position(stream: 14), -24, accuracy: 0.000_1, "30 s of the origin's sliding")
        XCTAssertTrue(paused.hasFallenOut(stream: 14))
        XCTAssertEqual(paused.edge, 12, accuracy: 0.000_1, "the window keeps its length")
        XCTAssertEqual(paused.stream(position: 1), 1 + 8 + 30, accuracy: 0.000_1, "a seek into the window as it is now")
    }

    func testWallClockToPosition() {
        let snapshot = timeline().snapshot
        XCTAssertEqual(snapshot.seconds(at: Date(timeIntervalSince1970: t0 + 5)) ?? -1, 5, accuracy: 0.000_1)
        XCTAssertEqual(snapshot.seconds(at: Date(timeIntervalSince1970: t0 - 5)) ?? -1, 0, accuracy: 0.000_1, "clamped to the window")
        XCTAssertEqual(snapshot.seconds(at: Date(timeIntervalSince1970: t0 + 50)) ?? -1, 12, accuracy: 0.000_1)
    }
}
