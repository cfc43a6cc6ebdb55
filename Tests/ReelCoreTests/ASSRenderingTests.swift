@testable import ReelCore
import XCTest

/// ASS/SSA as it is drawn: `[Script Info]` PlayResX/PlayResY, font sizes (styles' Fontsize,
/// `\fs`) relative to Reel's subtitle size, `\pos`/`\move` with the alignment point, and tags
/// that are never text.
final class ASSRenderingTests: XCTestCase {
    private func cues(_ info: String, styles: String = "", _ dialogues: [String]) throws -> [SubtitleCue] {
        var text = "[Script Info]\nScriptType: v4.00+\n\(info)\n\n"
        if !styles.isEmpty {
            text += "[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, "
                + "Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n"
                + styles + "\n\n"
        }
        text += "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        text += dialogues.map { "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,\($0)" }.joined(separator: "\n") + "\n"
        return try SubtitleFile.parse(Array(text.utf8), fileName: "a.ass").get().cues
    }

    func testScriptResolutionDefaults() {
        typealias R = ASSParser.Resolution
        let table: [(Double?, Double?, Double, Double)] = [
            (nil, nil, 384, 288), (1920, 1080, 1920, 1080), (nil, 1024, 1280, 1024), (640, nil, 640, 480), (nil, 720, 960, 720), (1280, nil, 1280, 1024),
        ]
        for (x, y, ex, ey) in table {
            let r = R(x: x, y: y)
            XCTAssertEqual([r.playResX, r.playResY], [ex, ey], "\(String(describing: x))×\(String(describing: y))")
        }
    }

    func testFontSizesAreSharesOfTheScriptHeight() throws {
        let style = "Style: Default,Arial,54,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,20,1"
        let got = try cues("PlayResX: 1920\nPlayResY: 1080", styles: style, ["plain", "{\\fs108}double{\\fs}back", "{\\fscx150}not a size"])
        XCTAssertEqual(got[0].markup, "<span size=\"72%\">plain</span>", "54 of 1080 against 20 of 288")
        XCTAssertEqual(got[1].runs.map(\.scale), [1.44, 0.72])
        XCTAssertEqual(got[2].runs.map(\.scale), [0.72], "\\fscx is a width scale, not a size")
        // Without PlayRes: 288 high; the default 20 is Reel's own size.
        let plain = try cues("", ["{\\fs20}same {\\fs40}twice"])
        XCTAssertEqual(plain[0].runs.map(\.scale), [nil, 2])
        XCTAssertEqual(plain[0].markup, "same <span size=\"200%\">twice</span>")
    }

    func testPositionsPlaceTheAlignmentPoint() throws {
        let got = try cues("PlayResX: 640\nPlayResY: 480", [
            "{\\pos(320,240)}centre bottom at the middle", "{\\an7\\pos(64,48)}top left", "{\\move(64,432,600,48)}moving",
            "{\\pos(9999,-5)}clamped", "{\\pos(a,b)}unreadable",
        ])
        func xy(_ cue: SubtitleCue) -> [Double?] { [cue.placement?.x, cue.placement?.y] }
        XCTAssertEqual(xy(got[0]), [0.5, 0.5])
        XCTAssertEqual(got[0].placement?.vertical, .bottom)
        XCTAssertEqual(xy(got[1]), [0.1, 0.1])
        XCTAssertEqual(got[1].placement.map { [$0.vertical == .top, $0.horizontal == .left] }, [true, true])
        XCTAssertEqual(xy(got[2]), [0.1, 0.9], "\\move: where it starts")
        XCTAssertEqual(xy(got[3]), [1, 0])
        XCTAssertNil(got[4].placement)
        XCTAssertEqual(got.map(\.text), ["centre bottom at the middle", "top left", "moving", "clamped", "unreadable"])
    }

    func testOverrideTagsAreNeverText() throws {
        let got = try cues("", ["{\\blur3\\fad(100,200)\\frz45\\bord2\\shad1\\3c&H0000FF&}tags{\\k20}ka{\\K30}ra\\hoke"])
        XCTAssertEqual(got.first?.text, "tagskara\u{00A0}oke")
    }

    /// Without \pos, the style's margins (or the line's, when not 0) place the text; lines aligned
    /// left or right wrap between MarginL and MarginR.
    func testMarginsPlaceTheText() throws {
        let styles = "Style: BottomLeft,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,1,64,32,48,1\n"
            + "Style: TopRight,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,9,64,32,48,1\n"
            + "Style: Centre,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,64,32,48,1"
        var text = "[Script Info]\nScriptType: v4.00+\nPlayResX: 640\nPlayResY: 480\n\n[V4+ Styles]\n"
            + "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, "
            + "ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n" + styles + "\n\n"
        text += "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        text += "Dialogue: 0,0:00:01.00,0:00:02.00,BottomLeft,,0,0,0,,a\n"
        text += "Dialogue: 0,0:00:01.00,0:00:02.00,TopRight,,0,0,0,,b\n"
        text += "Dialogue: 0,0:00:01.00,0:00:02.00,Centre,,0,0,0,,c\n"
        text += "Dialogue: 0,0:00:01.00,0:00:02.00,Centre,,0,0,96,,d\n"
        text += "Dialogue: 0,0:00:01.00,0:00:02.00,BottomLeft,,0,0,0,,{\\pos(320,240)}e\n"
        let cues = try SubtitleFile.parse(Array(text.utf8), fileName: "m.ass").get().cues
        func p(_ i: Int) -> [Double?] { [cues[i].placement?.x, cues[i].placement?.y, cues[i].placement?.width] }
        XCTAssertEqual(p(0), [0.1, 0.9, 0.85], "bottom left: 64 from the left, 48 from the bottom, wrapping between the margins")
        XCTAssertEqual(cues[1].placement.map { [$0.vertical == .top, $0.horizontal == .right] }, [true, true])
        XCTAssertEqual(p(1), [0.95, 0.1, 0.85])
        XCTAssertEqual(p(2), [nil, 0.9, nil], "centred: only the vertical margin")
        XCTAssertEqual(p(3), [nil, 0.8, nil], "the line's MarginV replaces the style's")
        XCTAssertEqual(p(4), [0.5, 0.5, nil], "\\pos wins over margins")
    }

    /// The style's edge: its outline colour, no outline, or an opaque box.
    func testOutlinesFromStyles() throws {
        let styles = "Style: Red,Arial,20,&H00FFFFFF,&H000000FF,&H000000FF,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,0,0,0,1\n"
            + "Style: None,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,2,0,0,0,1\n"
            + "Style: Box,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,3,2,0,2,0,0,0,1\n"
            + "Style: Plain,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,0,0,0,1"
        var text = "[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\n"
            + "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, "
            + "ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n" + styles + "\n\n"
        text += "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        for name in ["Red", "None", "Box", "Plain"] { text += "Dialogue: 0,0:00:01.00,0:00:02.00,\(name),,0,0,0,,\(name)\n" }
        let cues = try SubtitleFile.parse(Array(text.utf8), fileName: "o.ass").get().cues
        XCTAssertEqual(cues.map(\.outline), [SubtitleOutline(color: "#ff0000"), SubtitleOutline(drawn: false), SubtitleOutline(box: true), nil])
    }
}
