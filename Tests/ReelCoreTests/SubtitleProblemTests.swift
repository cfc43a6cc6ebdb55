import ReelCore
import XCTest

/// A bad part of a subtitle file is left out and named by its line; the rest is read.
final class SubtitleProblemTests: XCTestCase {
    private func read(_ text: String, _ name: String) -> ([Double], [SubtitleProblem]) {
        let r = SubtitleFile.read(Array(text.utf8), fileName: name)
        return ((try? r.timeline.get().cues.map(\.start)) ?? [], r.problems)
    }

    func testSubRip() {
        let srt = "1\n00:00:01,000 --> 00:00:02,000\nGood\n\n2\n00:00:03,0x0 --> 00:00:04,000\nBad timing\n\n3\n00:00:06,000 --> 00:00:05,000\nBackwards\n\n4\n00:00:07,000 --> 00:00:08,000\nGood again\n"
        let (starts, problems) = read(srt, "a.srt")
        XCTAssertEqual(starts, [1, 7])
        XCTAssertEqual(problems.map(\.line), [6, 10])
        XCTAssertEqual(problems.map(\.code), [.unreadableTiming, .endsBeforeStart])
        XCTAssertTrue(problems[0].message.contains("00:00:03,0x0 --> 00:00:04,000"), problems[0].message)
        XCTAssertEqual(SubtitleFile.warning(fileName: "a.srt", problems: problems)?.message,
                       "The subtitle file “a.srt”, line 6: the timing line “00:00:03,0x0 --> 00:00:04,000” cannot be read; its cue is left out (and 1 more: reel inspect lists them); the rest plays.")
        XCTAssertNil(SubtitleFile.warning(fileName: "a.srt", problems: []))
    }

    func testWebVTT() {
        let vtt = "WEBVTT\n\n\n00:01.000 --> 00:02.000\nGood\n\nstray text\nwithout timing\n\nid\n00:0x.000 --> 00:04.000\nBad\n\n00:05.000 --> 00:06.000\nGood again\n"
        let (starts, problems) = read(vtt, "a.vtt")
        XCTAssertEqual(starts, [1, 5])
        XCTAssertEqual(problems.map(\.code), [.notACue, .unreadableTiming])
        XCTAssertEqual(problems.map(\.line), [7, 11], "\(problems)")
    }

    func testASS() {
        let ass = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Good\n"
            + "Dialogue: 0,0:00:0x.00,0:00:04.00,Default,,0,0,0,,Bad\n"
            + "Dialogue: 0,0:00:05.00\n"
        let (starts, problems) = read(ass, "a.ass")
        XCTAssertEqual(starts, [1])
        XCTAssertEqual(problems.map(\.line), [7, 8])
        XCTAssertEqual(Set(problems.map(\.code)), [.unreadableDialogue])
    }

    func testAFileWithNothingReadableNamesItsFirstProblem() {
        let r = SubtitleFile.read(Array("1\n00:00:0x,000 --> 00:00:02,000\nBad\n".utf8), fileName: "b.srt")
        guard case .failure(let error) = r.timeline else { return XCTFail("no cue can be read") }
        XCTAssertEqual(error.kind, .subtitleFile)
        XCTAssertTrue(error.message.contains("line 2"), error.message)
    }
}
