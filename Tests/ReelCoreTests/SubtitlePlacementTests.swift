import ReelCore
import XCTest

/// Where a cue is drawn, as its file asks (ASS `\an`/`\a`, WebVTT settings), by table and
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

    // WebVTT's settings: WebVTTAlgorithmTests.testPlacementFromSettings (the W3C rules).

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

/// ASS styles give each Dialogue line its base: bold, italic, underline, colour and alignment.
final class ASSStyleTests: XCTestCase {
    func testStylesAndOverrides() throws {
        let ass = """
        [Script Info]
        ScriptType: v4.00+
        PlayResX: 1920

        [V4+ Styles]
        Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
        Style: Default,Arial,48,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,10,1
        Style: Sign,Arial,40,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,-1,0,0,100,100,0,0,1,2,0,8,10,10,10,1

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Plain
        Dialogue: 0,0:00:03.00,0:00:04.00,Sign,,0,0,0,,A sign
        Dialogue: 0,0:00:05.00,0:00:06.00,sign,,0,0,0,,{\\an2}Moved down
        Dialogue: 0,0:00:07.00,0:00:08.00,Sign,,0,0,0,,{\\i0}Upright {\\r}back {\\c&H0000FF&}red
        Dialogue: 0,0:00:09.00,0:00:10.00,Nobody,,0,0,0,,Unknown style
        """
        let cues = try SubtitleFile.parse(Array(ass.utf8), fileName: "s.ass").get().cues
        // Sizes: PlayResX 1920 alone means PlayResY 1440 (libass's 4:3); 48 of 1440 is 48 % of
        // ASS's default (20 of 288), 40 is 40 %.
        XCTAssertEqual(cues.map(\.markup), [
            "<span size=\"48%\">Plain</span>",
            "<span size=\"40%\"><span foreground=\"#ffff00\"><b><i>A sign</i></b></span></span>",
            "<span size=\"40%\"><span foreground=\"#ffff00\"><b><i>Moved down</i></b></span></span>",
            "<span size=\"40%\"><span foreground=\"#ffff00\"><b>Upright </b></span></span><span size=\"40%\"><span foreground=\"#ffff00\"><b><i>back </i></b></span></span><span size=\"40%\"><span foreground=\"#ff0000\"><b><i>red</i></b></span></span>",
            "Unknown style",
        ])
        XCTAssertEqual(cues.map { $0.placement?.vertical }, [.bottom, .top, .bottom, .top, nil],
                       "the style's alignment 8 unless \\an says otherwise; \\r goes back to the line's style; no style: the default place")
        // MarginV 10 of PlayResY 1440 (PlayResX 1920 alone: 4:3) from the top or the bottom.
        for (cue, y) in zip(cues.prefix(4), [1 - 10.0 / 1440, 10.0 / 1440, 1 - 10.0 / 1440, 10.0 / 1440]) {
            XCTAssertEqual(try XCTUnwrap(cue.placement?.y), y, accuracy: 1e-9, cue.text)
        }
    }

    func testSSAv4StylesUseTheLegacyAlignment() throws {
        let ssa = "[Script Info]\nScriptType: v4.00\n\n[V4 Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding\n"
            + "Style: Top,Arial,20,16777215,65535,65535,0,0,0,1,2,0,6,30,30,10,0,0\n\n[Events]\nFormat: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
            + "Dialogue: Marked=0,0:00:01.00,0:00:02.00,Top,,0000,0000,0000,,At the top\n"
        let cues = try SubtitleFile.parse(Array(ssa.utf8), fileName: "s.ssa").get().cues
        XCTAssertEqual(cues.first?.placement?.vertical, .top, "SSA's alignment 6: top centre")
        XCTAssertEqual(cues.first?.placement?.horizontal, .center)
        XCTAssertEqual(try XCTUnwrap(cues.first?.placement?.y), 10.0 / 288, accuracy: 1e-9, "MarginV 10 of PlayResY 288 from the top")
        XCTAssertEqual(cues.first?.markup, "At the top", "16777215 is white: no colour")
    }
}
