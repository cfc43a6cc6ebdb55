@testable import ReelCore
import ReelTestSupport
import XCTest

/// WebVTT by the W3C algorithms, table by table from the spec's text: the file (every step of
/// "WebVTT parser algorithm" and "collect a WebVTT block", `WebVTTSpecCases`, shared with the
/// `reel inspect` tests), timestamps, cue settings, the cue box, the cue text tokenizer and tree,
/// and character references.
final class WebVTTAlgorithmTests: XCTestCase {
    func testTheFileAlgorithmStepByStep() {
        for spec in WebVTTSpecCases.all {
            let read = SubtitleFile.read(Array(spec.file.utf8), fileName: "t.vtt")
            let cues = (try? read.timeline.get().cues) ?? []
            XCTAssertEqual(cues.map { "\($0.identifier)|\($0.text)" }, spec.cues, spec.step)
            XCTAssertEqual(read.problems.map(\.code.rawValue), spec.problems, spec.step)
        }
    }

    /// Problems carry the line they are on (1-based, after CR/CRLF normalisation).
    func testProblemsNameTheirLines() {
        let file = "WEBVTT\r\n\r\nstray\r\n\r\n00:01 --> 00:02\r\nA\r\n\r\n00:03.000 --> 00:02.000\r\nB\r\n"
        let read = SubtitleFile.read(Array(file.utf8), fileName: "t.vtt")
        XCTAssertEqual(read.problems.map(\.line), [3, 5, 8])
        XCTAssertEqual(read.problems.map(\.code), [.notACue, .unreadableTiming, .endsBeforeStart])
    }

    /// A ".vtt" without the signature, with SubRip's cues inside: read as SubRip, and said.
    func testAVTTNameWithoutTheSignatureIsReadAsSubRipAndSaysSo() throws {
        let read = SubtitleFile.read(Array("1\n00:00:01,000 --> 00:00:02,000\nHello\n".utf8), fileName: "film.en.vtt")
        XCTAssertEqual(try read.timeline.get().cues.map(\.text), ["Hello"])
        XCTAssertEqual(read.problems.map(\.code), [.noSignature])
    }

    /// "Collect a WebVTT timestamp": two-digit minutes and seconds (≤ 59), three-digit fraction
    /// after ".", hours when the first field is not two digits or is over 59.
    func testTimestamps() {
        let table: [(String, Double?)] = [
            ("00:01.000", 1), ("01:02.345", 62.345), ("00:00:01.000", 1), ("100:00:00.000", 360_000),
            ("1:02:03.004", 3723.004), ("1:02.345", nil), ("60:00.000", nil), ("00:60.000", nil), ("00:00:60.000", nil),
            ("00:01.5", nil), ("00:01.0000", nil), ("00:01,000", nil), ("-1:00.000", nil), ("00:1.000", nil), ("", nil),
            ("00:01", nil), ("59:59.999", 3599.999),
        ]
        for (text, expected) in table {
            var position = 0
            let chars = Array(text)
            let value = WebVTTTimestamp.collect(chars, &position)
            if let expected, let value { XCTAssertEqual(value, expected, accuracy: 1e-9, text) } else { XCTAssertNil(value, text) }
        }
    }

    /// "Parse the WebVTT cue settings": each setting's rules, and what leaves a setting unread.
    func testCueSettings() {
        typealias S = WebVTTCueSettings
        func s(_ text: String, regions: [String] = []) -> S { S(parsing: Substring(text), regions: regions) }
        XCTAssertEqual(s("vertical:rl").vertical, .rl)
        XCTAssertEqual(s("vertical:lr").vertical, .lr)
        XCTAssertEqual(s("vertical:xx").vertical, .horizontal)
        let lines: [(String, S.Line, S.LineAlign)] = [
            ("line:0", .number(0), .start), ("line:-1", .number(-1), .start), ("line:1.5", .number(1.5), .start),
            ("line:50%", .percent(50), .start), ("line:50%,center", .percent(50), .center), ("line:0,end", .number(0), .end),
            ("line:0,bogus", .auto, .start), ("line:-", .auto, .start), ("line:1-", .auto, .start), ("line:.5", .auto, .start),
            ("line:5.", .auto, .start), ("line:1..2", .auto, .start), ("line:101%", .auto, .start), ("line:auto", .auto, .start),
            ("line:1e3", .auto, .start), ("Line:0", .auto, .start), ("line:", .auto, .start), (":0", .auto, .start),
        ]
        for (text, line, align) in lines {
            XCTAssertEqual(s(text).line, line, text)
            XCTAssertEqual(s(text).lineAlign, align, text)
        }
        let positions: [(String, Double?, S.PositionAlign)] = [
            ("position:10%", 10, .auto), ("position:10%,line-left", 10, .lineLeft), ("position:0%,center", 0, .center),
            ("position:100%,line-right", 100, .lineRight), ("position:10%,bogus", nil, .auto), ("position:10", nil, .auto),
            ("position:-5%", nil, .auto), ("position:10.5%", 10.5, .auto),
        ]
        for (text, position, align) in positions {
            XCTAssertEqual(s(text).position, position, text)
            XCTAssertEqual(s(text).positionAlign, align, text)
        }
        XCTAssertEqual(s("size:50%").size, 50)
        XCTAssertEqual(s("size:50").size, 100)
        XCTAssertEqual(s("size:150%").size, 100)
        for (text, align) in [("align:start", S.Align.start), ("align:center", .center), ("align:end", .end), ("align:left", .left),
                              ("align:right", .right), ("align:middle", .center), ("align:END", .center)] {
            XCTAssertEqual(s(text).align, align, text)
        }
        XCTAssertEqual(s("region:fred", regions: ["fred"]).region, "fred")
        XCTAssertNil(s("region:fred", regions: []).region)
        XCTAssertNil(s("region:fred line:0", regions: ["fred"]).region, "a line drops the cue out of its region")
        XCTAssertNil(s("region:fred size:50%", regions: ["fred"]).region, "so does a size")
        XCTAssertTrue(s("").isDefault)
        XCTAssertTrue(s("x:1 :y z: nocolon").isDefault)
        let several = s("align:start\tline:10%  position:20%  size:30%")
        XCTAssertEqual([several.align == .start, several.line == .percent(10), several.position == 20, several.size == 30], [true, true, true, true])
    }

    /// "Apply WebVTT cue settings" (§7.2) for horizontal text: the box from position, its
    /// alignment and size (limited to what fits).
    func testTheCueBox() {
        let table: [(String, Double, Double)] = [
            ("", 0, 100), ("position:10% align:start", 10, 90), ("align:end", 0, 100), ("align:start size:40%", 0, 40),
            ("position:70% size:80%", 40, 60), ("position:30%,line-right size:20%", 10, 20), ("position:50% size:50%", 25, 50),
            ("align:right position:90% size:30%", 60, 30),
        ]
        for (text, left, width) in table {
            let box = WebVTTCueSettings(parsing: Substring(text)).box
            XCTAssertEqual(box.left, left, accuracy: 1e-9, text)
            XCTAssertEqual(box.width, width, accuracy: 1e-9, text)
        }
    }

    /// Where the overlay draws a cue for its settings.
    func testPlacementFromSettings() {
        typealias P = SubtitlePlacement
        func p(_ text: String) -> P? { P(webVTT: WebVTTCueSettings(parsing: Substring(text))) }
        XCTAssertNil(p(""))
        XCTAssertNil(p("align:center"))
        XCTAssertNil(p("line:auto"))
        XCTAssertEqual(p("line:0"), P(vertical: .top))
        XCTAssertNil(p("line:-1"), "the last line: where cues go anyway")
        XCTAssertEqual(p("line:0 align:start"), P(vertical: .top, horizontal: .left))
        XCTAssertEqual(p("align:end"), P(horizontal: .right))
        var top10 = P(vertical: .top)
        top10.y = 0.1
        XCTAssertEqual(p("line:10%"), top10)
        var middle = P(vertical: .middle)
        middle.y = 0.5
        XCTAssertEqual(p("line:50%,center"), middle)
        var left = P(horizontal: .left)
        left.x = 0.1
        left.width = 0.9
        XCTAssertEqual(p("position:10% align:start"), left)
        var narrow = P()
        narrow.x = 0.5
        narrow.width = 0.3
        XCTAssertEqual(p("size:30%"), narrow)
        var right = P(horizontal: .right)
        right.x = 0.9
        right.width = 0.3
        XCTAssertEqual(p("align:right position:90% size:30%"), right)
    }

    /// The cue text tokenizer and tree building: every tag, the states' edges, the tree's shape.
    func testCueTextTree() {
        typealias N = WebVTTNode
        XCTAssertEqual(WebVTTCueText.parse("<v.loud Roger  Bingham>Hi</v>"),
                       [.element(.v, classes: ["loud"], annotation: "Roger Bingham", language: nil, children: [.text("Hi")])])
        XCTAssertEqual(WebVTTCueText.parse("<lang en><i>x</i></lang>y"),
                       [.element(.lang, classes: [], annotation: "en", language: "en",
                                 children: [.element(.i, classes: [], annotation: nil, language: "en", children: [.text("x")])]), .text("y")])
        XCTAssertEqual(WebVTTCueText.parse("a<00:00:01.500>b<00:01.5>c"), [.text("a"), .timestamp(1.5), .text("b"), .text("c")])
        XCTAssertEqual(WebVTTCueText.parse("<ruby>漢<rt>kan</ruby>字"),
                       [.element(.ruby, classes: [], annotation: nil, language: nil,
                                 children: [.text("漢"), .element(.rt, classes: [], annotation: nil, language: nil, children: [.text("kan")])]),
                        .text("字")], "</ruby> closes the ruby text and the ruby")
        XCTAssertEqual(WebVTTCueText.parse("<rt>x</rt>"), [.text("x")], "ruby text outside ruby is ignored")
        XCTAssertEqual(WebVTTCueText.parse("<c..a.>x</c>"), [.element(.c, classes: ["a"], annotation: nil, language: nil, children: [.text("x")])])
        XCTAssertEqual(WebVTTCueText.parse("<i>x</b>y</i>z"),
                       [.element(.i, classes: [], annotation: nil, language: nil, children: [.text("x"), .text("y")]), .text("z")],
                       "an end tag that is not the current node's is ignored")
        XCTAssertEqual(WebVTTCueText.parse("<I>x</I>"), [.text("x")], "tag names are case-sensitive")
        XCTAssertEqual(WebVTTCueText.parse("<span>x</span>"), [.text("x")], "unknown tags are ignored")
        XCTAssertEqual(WebVTTCueText.parse("<>x"), [.text("x")])
        XCTAssertEqual(WebVTTCueText.parse("<i"), [.element(.i, classes: [], annotation: nil, language: nil, children: [])], "a tag at the end of the text")
        XCTAssertEqual(WebVTTCueText.parse("a < b > c"), [.text("a "), .text(" c")], "“<” always opens a tag in WebVTT")
        XCTAssertEqual(WebVTTCueText.parse("<b.x\ny>z</b>"),
                       [.element(.b, classes: ["x"], annotation: nil, language: nil, children: [.text("z")])], "a line feed in a tag starts its annotation")
        XCTAssertEqual(WebVTTCueText.parse("<v A &amp; B>x"),
                       [.element(.v, classes: [], annotation: "A & B", language: nil, children: [.text("x")])], "references in annotations")
    }

    /// Runs: styles nest, the default colour classes colour the text and its background.
    func testCueTextRuns() {
        func markup(_ text: String) -> String { WebVTTCueText.runs(WebVTTCueText.parse(text)).map(\.markup).joined() }
        XCTAssertEqual(markup("<i>a<b>b</b></i>"), "<i>a</i><b><i>b</i></b>")
        XCTAssertEqual(markup("<u>u</u>"), "<u>u</u>")
        XCTAssertEqual(markup("<c.yellow>y</c>"), "<span foreground=\"#ffff00\">y</span>")
        XCTAssertEqual(markup("<c.yellow.bg_blue>y</c>"), "<span background=\"#0000ff\"><span foreground=\"#ffff00\">y</span></span>")
        XCTAssertEqual(markup("<c.unknown>x</c>"), "x")
        XCTAssertEqual(markup("<ruby>漢<rt>kan</rt>字<rt>ji</RT></ruby>"), "漢字", "ruby text is not drawn")
        XCTAssertEqual(markup("<v Joe>1 &lt; 2</v>"), "1 &lt; 2", "the voice is not drawn; text is escaped for Pango")
    }

    /// HTML character references as WebVTT's tokenizer consumes them.
    func testCharacterReferences() {
        let table: [(String, String)] = [
            ("a &amp; b", "a & b"), ("&lt;i&gt;", "<i>"), ("&nbsp;", "\u{00A0}"), ("&lrm;&rlm;", "\u{200E}\u{200F}"),
            ("&#65;&#x42;&#X43;", "ABC"), ("&#0;", "\u{FFFD}"), ("&#x110000;", "\u{FFFD}"), ("&#xD800;", "\u{FFFD}"),
            ("&#128;", "€"), ("&#65", "A"), ("&#;", "&#;"), ("&#x;", "&#x;"), ("&copy", "©"), ("&copy;2026", "©2026"),
            ("&hellip;", "…"), ("&hellip", "&hellip"), ("&notanentity;", "¬anentity;"), ("&bogus;", "&bogus;"), ("a & b", "a & b"), ("&", "&"),
            ("&amp", "&"), ("&eacute;t&eacute;", "été"), ("&Eacute;", "É"), ("&yuml;", "ÿ"), ("&euro;", "€"),
        ]
        for (text, expected) in table {
            XCTAssertEqual(WebVTTCueText.runs(WebVTTCueText.parse(text)).map(\.text).joined(), expected, text)
        }
        // HTML 4's Latin-1 names run U+00A0…U+00FF in order: the last one lands on U+00FF.
        XCTAssertEqual(HTMLCharacterReference.named["nbsp"], "\u{00A0}")
        XCTAssertEqual(HTMLCharacterReference.named["yuml"], "\u{00FF}")
    }
}
