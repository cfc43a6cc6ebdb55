import Foundation
import ReelCore
import XCTest

/// `LiveStream`: what the gateway's serving of playlists leaves for the engine.
final class LiveStreamTests: XCTestCase {
    private func playlist(first: Int, count: Int) -> String {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:\(first)"]
        for n in first..<(first + count) {
            lines += ["#EXT-X-PROGRAM-DATE-TIME:" + ProgramDate.format(Date(timeIntervalSince1970: 1_795_550_400 + 2 * Double(n))), "#EXTINF:2,", "s\(n).ts"]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    func testItLearnsWhetherTheWindowSlidesOrGrows() {
        let sliding = LiveStream(program: nil)
        XCTAssertTrue(sliding.slides, "a live item is taken to slide until a refresh says")
        _ = sliding.serve(playlist(first: 0, count: 6))
        _ = sliding.serve(playlist(first: 1, count: 6))
        XCTAssertTrue(sliding.slides)

        let event = LiveStream(program: nil)
        _ = event.serve(playlist(first: 0, count: 6))
        _ = event.serve(playlist(first: 0, count: 7))
        XCTAssertFalse(event.slides, "an event playlist grows from the same first segment")

        let restart = LiveStream(program: LiveProgram(mode: .restart, start: Date(timeIntervalSince1970: 1_795_550_400)))
        XCTAssertFalse(restart.slides, "a restart's window begins at the programme")
    }

    func testSteeringStopsOnceStartedAndAClosedPlaylistIsVOD() {
        let live = LiveStream(program: LiveProgram(mode: .restart, start: Date(timeIntervalSince1970: 1_795_550_400)))
        let held = live.serve(playlist(first: 0, count: 10))
        XCTAssertEqual(held.components(separatedBy: "#EXTINF").count - 1, 4, "before the start: four segments from the programme start")
        XCTAssertEqual(live.snapshot?.durations.count, 10, "the snapshot is the whole window")
        XCTAssertEqual(live.plannedStart?.rule, "program-start")
        live.markStarted()
        XCTAssertEqual(live.serve(playlist(first: 0, count: 11)).components(separatedBy: "#EXTINF").count - 1, 11, "then all of it")
        _ = live.serve(playlist(first: 0, count: 11), closing: true)
        XCTAssertEqual(live.snapshot?.hasEndList, true, "the gateway closes it: VOD")
        XCTAssertNil(live.takeProblem())
    }

    /// A restart whose programme ends while it plays stays a restart (issue 45's LiveDASHTests
    /// failure): the refresh after the end is not cut to the programme and closed as a catchup
    /// would be (playback went on only to the programme's end, and a closed window silenced
    /// `live-program-end` when the refresh came before the tick). One that had ended before it
    /// started is a catchup, as before.
    func testARestartThatEndsWhilePlayingGoesOn() {
        let t0 = Date(timeIntervalSince1970: 1_795_550_400)
        let program = LiveProgram(mode: .restart, start: t0.addingTimeInterval(4), end: t0.addingTimeInterval(20))
        let playing = LiveStream(program: program)
        _ = playing.serve(playlist(first: 0, count: 10), now: t0.addingTimeInterval(19))
        XCTAssertEqual(playing.programInForce?.effectiveMode(at: t0.addingTimeInterval(19)), .restart)
        playing.markStarted()
        let after = playing.serve(playlist(first: 0, count: 14), now: t0.addingTimeInterval(27))
        XCTAssertEqual(playing.snapshot?.hasEndList, false, "not closed at the programme's end")
        XCTAssertFalse(after.contains("#EXT-X-ENDLIST"))
        XCTAssertTrue(after.contains("s13.ts"), "the segments after the programme's end are served")
        XCTAssertEqual(playing.programInForce?.effectiveMode(at: t0.addingTimeInterval(27)), .restart)

        let late = LiveStream(program: program)
        let vod = late.serve(playlist(first: 0, count: 14), now: t0.addingTimeInterval(27))
        XCTAssertEqual(late.programInForce?.mode, .catchup, "ended before it started: a catchup")
        XCTAssertTrue(vod.contains("#EXT-X-ENDLIST"))
        XCTAssertFalse(vod.contains("s13.ts"))
    }
}
