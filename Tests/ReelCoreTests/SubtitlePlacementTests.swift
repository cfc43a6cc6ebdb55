import ReelCore
import XCTest

/// Where a cue is drawn, as its file asks (ASS `\an`/`\a`, WebVTT `line`/`align`), by table and
/// through the parsers.
final class SubtitlePlacementTests: XCTestCase {
    private typealias P = SubtitlePlacement

    func testASSNumpadAndLegacyAlignment() {
        let numpad: [(Int, P?)] = [
            (1, P(vertical: .bottom, horizontal: .left)), (2, P(vertical: .bottom, horizontal: .center)),
            (3, P(vertical: .bottom, horizontal: .right)), (5, P(vertical: .middle, horizontal: .center)),
            (7, P(vertical: .top, horizontal: .left)), (8, P(vertical: .top, horizontal: .center)),
            (9, P(vertical: .top, horizontal: .right)), (0, nil), (10, nil),
        ]
        for (n, expected) in numpad { XCTAssertEqual(P(numpad: n), expected, "\\an\(n)") }
        let legacy: [(Int, P?)] = [
            (1, P(vertical: .bottom, horizontal: .left)), (2, .standard), (6, P(vertical: .top, horizontal: .center)),
            (7, P(vertical: .top, horizontal: .right)), (9, P(vertical: .middle, horizontal: .left)), (4, nil), (8, nil), (12, nil),
        ]
        for (n, expected) in legacy { XCTAssertEqual(P(legacy: n), expected, "\\a\(n)") }
    }

    func testWebVTTLineAndAlign() {
        let table: [(String, P?)] = [
            ("line:0", P(vertical: .top)),
            ("line:2 align:start", P(vertical: .top, horizontal: .left)),
            ("line:-1", P(vertical: .bottom)),
            ("line:10%", P(vertical: .top)),
            ("line:50%,center", P(vertical: .middle)),
            ("line:90%", P(vertical: .bottom)),
            ("align:end", P(horizontal: .right)),
            ("align:left position:10%", P(horizontal: .left)),
            ("align:center", .standard),
            ("position:10% size:50%", nil),
            ("line:auto", nil),
            ("line:150%", nil),
            ("", nil),
        ]
        for (settings, expected) in table { XCTAssertEqual(P(webVTTSettings: Substring(settings)), expected, settings) }
    }

    func testTheParsersPlaceTheirCues() throws {
        let ass = "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\an8}TOP\n"
            + "Dialogue: 0,0:00:04.00,0:00:05.00,Default,,0,0,0,,{\\i1}plain\n"
            + "Dialogue: 0,0:00:06.00,0:00:07.00,Default,,0,0,0,,{\\a6\\b1}legacy {\\an3}last wins\n"
        let cues = try SubtitleFile.parse(Array(ass.utf8), fileName: "a.ass").get().cues
        XCTAssertEqual(cues.map(\.placement), [P(vertical: .top), nil, P(vertical: .bottom, horizontal: .right)])
        XCTAssertEqual(cues.first?.text, "TOP", "the tag is not drawn")

        let vtt = "WEBVTT\n\n00:01.000 --> 00:03.000 line:0 align:start\nTop left\n\n00:04.000 --> 00:05.000\nPlain\n"
        let vcues = try SubtitleFile.parse(Array(vtt.utf8), fileName: "a.vtt").get().cues
        XCTAssertEqual(vcues.map(\.placement), [P(vertical: .top, horizontal: .left), nil])
        XCTAssertEqual(vcues.map(\.end), [3, 5], "settings after the end time do not spoil it")
    }
}
