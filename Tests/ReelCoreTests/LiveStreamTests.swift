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
}
