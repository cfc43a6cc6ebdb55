import Foundation
@testable import ReelCore
import ReelTestSupport
import XCTest

/// Issue 61: the subtitle readers checked against what other projects wrote, not only Reel's own
/// fixtures: GStreamer's subparse tests (tests/check/elements/subparse.c in 1.22: its SRT inputs
/// and the times and text it expects) for SubRip, and Python's `html.unescape` (WHATWG's whole
/// named-reference table, with HTML's longest-match and legacy rules) for character references.
final class SubtitleReadersAgainstOthersTests: XCTestCase {
    private func cues(_ text: String, _ name: String = "a.srt") -> [SubtitleCue] {
        guard case .success(let timeline) = SubtitleFile.parse(Array(text.utf8), fileName: name) else { return [] }
        return timeline.cues
    }

    /// subparse.c's `srt_input1` ("has spaces instead of doubled zeroes"), `srt_input2` (a BOM,
    /// two places) and `srt_input3` (fewer than three places, spaces before the arrow and after the
    /// end): a fraction padded with spaces is read with the spaces as zeros.
    func testSubRipTimesAsGStreamersSubparseTestsExpectThem() {
        let table: [(String, Double, Double, String)] = [
            ("1\n 0: 0:26, 26 --> 0: 0:28, 17\nI cant see.\n\n", 26.026, 28.017, "I cant see."),
            ("2\n 0: 0:30, 30 --> 0: 0:33, 22\nI really cant see.\n\n", 30.030, 33.022, "I really cant see."),
            ("3\n 0: 0:40, 40 --> 0: 0:44, 44\nI still cant see anything.\n\n", 40.040, 44.044, "I still cant see anything."),
            ("\u{FEFF}1\n00:00:00,000 --> 00:00:03,50\nJust testing.\n\n", 0, 3.5, "Just testing."),
            ("0\n00:00:01,0 --> 00:00:02,0\nOne\n\n", 1, 2, "One"),
            ("1\n00:00:02,5   --> 00:00:03,  5 \nTwo\n\n", 2.5, 3.005, "Two"),
            ("2\n00:00:03, 9 --> 00:00:04,0   \nThree\n\n", 3.090, 4, "Three"),
        ]
        for (text, start, end, body) in table {
            let got = cues(text)
            XCTAssertEqual(got.count, 1, text)
            XCTAssertEqual(got.first?.start ?? -1, start, accuracy: 0.0005, text)
            XCTAssertEqual(got.first?.end ?? -1, end, accuracy: 0.0005, text)
            XCTAssertEqual(got.first?.text, body, text)
        }
        // A wider fraction after a space is spacing, as ffmpeg's srtdec reads it (and Reel did).
        XCTAssertEqual(cues("1\n00:00:01, 500 --> 00:00:02, 250\nA\n").first?.start ?? -1, 1.5, accuracy: 0.0005)
    }

    /// subparse.c's `srt_input` 25–27: a bare `&` is text (escaped in the markup, as subparse's
    /// output has it); and what subparse leaves literal, character references, is decoded.
    func testSubRipTextAmpersandsAndCharacterReferences() {
        let table: [(String, String, String)] = [
            ("gave <i>Rock & Roll</i> to", "gave Rock & Roll to", "gave <i>Rock &amp; Roll</i> to"),
            ("<i>Rock & Roll</i>", "Rock & Roll", "<i>Rock &amp; Roll</i>"),
            ("Rock & Roll", "Rock & Roll", "Rock &amp; Roll"),
            ("Tom &amp; Jerry", "Tom & Jerry", "Tom &amp; Jerry"),
            ("a&nbsp;b", "a\u{00A0}b", "a\u{00A0}b"),
            ("&lt;i&gt; is not a tag", "<i> is not a tag", "&lt;i&gt; is not a tag"),
            ("caf&eacute; &#233; &#xE9;", "café é é", "café é é"),
            ("&hellip;&forall;&lArr;", "…∀⇐", "…∀⇐"),
            ("AT&T", "AT&T", "AT&amp;T"),
        ]
        for (line, text, markup) in table {
            let cue = cues("1\n00:00:01,000 --> 00:00:02,000\n\(line)\n").first
            XCTAssertEqual(cue?.text, text, line)
            XCTAssertEqual(cue?.markup, markup, line)
        }
    }

    /// The names HTML 4 has that Reel's table lacked (its symbols and arrows), then every name of
    /// WHATWG's table, with and without `;`, at the end of the text and before more letters,
    /// decoded as Python's `html.unescape` decodes it, in WebVTT cue text and in SubRip text.
    func testEveryNamedReferenceAsPythonsHTMLUnescapeReadsIt() throws {
        let html4: [(String, String)] = [
            ("forall", "\u{2200}"), ("part", "\u{2202}"), ("exist", "\u{2203}"), ("empty", "\u{2205}"), ("nabla", "\u{2207}"),
            ("isin", "\u{2208}"), ("notin", "\u{2209}"), ("ni", "\u{220B}"), ("lowast", "\u{2217}"), ("prop", "\u{221D}"),
            ("ang", "\u{2220}"), ("and", "\u{2227}"), ("or", "\u{2228}"), ("cap", "\u{2229}"), ("cup", "\u{222A}"), ("int", "\u{222B}"),
            ("there4", "\u{2234}"), ("sim", "\u{223C}"), ("cong", "\u{2245}"), ("equiv", "\u{2261}"), ("sub", "\u{2282}"),
            ("sup", "\u{2283}"), ("nsub", "\u{2284}"), ("sube", "\u{2286}"), ("supe", "\u{2287}"), ("oplus", "\u{2295}"),
            ("otimes", "\u{2297}"), ("perp", "\u{22A5}"), ("sdot", "\u{22C5}"), ("lceil", "\u{2308}"), ("rceil", "\u{2309}"),
            ("lfloor", "\u{230A}"), ("rfloor", "\u{230B}"), ("lang", "\u{27E8}"), ("rang", "\u{27E9}"), ("lArr", "\u{21D0}"),
            ("uArr", "\u{21D1}"), ("rArr", "\u{21D2}"), ("dArr", "\u{21D3}"), ("hArr", "\u{21D4}"), ("crarr", "\u{21B5}"),
            ("weierp", "\u{2118}"), ("image", "\u{2111}"), ("real", "\u{211C}"), ("alefsym", "\u{2135}"), ("thetasym", "\u{3D1}"),
            ("upsih", "\u{3D2}"), ("piv", "\u{3D6}"), ("bull", "\u{2022}"), ("rsaquo", "\u{203A}"),
        ]
        for (name, value) in html4 {
            XCTAssertEqual(WebVTTCueText.runs(WebVTTCueText.parse("&\(name);")).map(\.text).joined(), value, name)
        }
        // Python's own decoding of every name in its table, in four places each.
        let script = """
            import html, html.entities, json, sys
            cases = []
            for name in sorted(html.entities.html5):
                bare = name.rstrip(';')
                for text in ('&' + name, 'x&' + bare + 'q', '&' + bare + ';z', '&' + bare):
                    cases.append([text, html.unescape(text)])
            json.dump(cases, sys.stdout)
            """
        let run = ProcessRunner.run("/usr/bin/python3", ["-c", script], timeout: 60)
        XCTAssertEqual(run.status, 0, run.stderr)
        let cases = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String]])
        XCTAssertGreaterThan(cases.count, 8000, "the whole table: 2,231 names")
        var wrong: [String] = []
        for c in cases where c.count == 2 {
            let got = WebVTTCueText.runs(WebVTTCueText.parse(c[0])).map(\.text).joined()
            if got != c[1] { wrong.append("\(c[0]) → \(got.unicodeScalars.map { String($0.value, radix: 16) }) not \(c[1].unicodeScalars.map { String($0.value, radix: 16) })") }
            if TaggedText.decodeEntities(c[0]) != c[1] { wrong.append("SRT \(c[0])") }
        }
        XCTAssertEqual(Array(wrong.prefix(20)), [], "\(wrong.count) cases differ from html.unescape")
    }
}
