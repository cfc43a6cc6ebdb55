import ReelCore
import XCTest

final class CaptureFileNameTests: XCTestCase {
    func testTemplateRenderingTable() throws {
        let cases: [(template: String, index: Int?, title: String?, position: Double, expected: String)] = [
            (CaptureFileName.defaultTemplate, 4, "Big Buck Bunny", 62.5, "004-Big_Buck_Bunny-00h01m02s500.png"),
            (CaptureFileName.defaultTemplate, nil, "clip", 0, "000-clip-00h00m00s000.png"),
            (CaptureFileName.defaultTemplate, 1234, "x", 3600, "1234-x-01h00m00s000.png"),
            ("{index}_{ms}.png", 7, nil, 1.0005, "7_1001.png"),
            ("{title}.png", 0, "../../etc/passwd", 0, "etc_passwd.png"),
            ("{title}.png", 0, "Ünïcödé / ☃ name?", 0, "n_c_d_name.png"),
            ("{title}.png", 0, "", 0, "item.png"),
            ("{title}.png", 0, "...hidden", 0, "hidden.png"),
            ("{index:05}-{position}.png", 42, "t", 0.001, "00042-00h00m00s001.png"),
            ("shot.png", 3, "t", 1, "shot.png"),
        ]
        for c in cases {
            XCTAssertEqual(try CaptureFileName.render(c.template, index: c.index, title: c.title, position: c.position), c.expected, c.template)
        }
    }

    func testWindowCapturesAddWindowBeforeTheExtension() throws {
        let cases: [(String, String)] = [
            (CaptureFileName.defaultTemplate, "004-Big_Buck_Bunny-00h01m02s500-window.png"),
            ("{index}.jpeg.png", "4.jpeg-window.png"),
            ("{index}", "4-window"),
        ]
        for (template, expected) in cases {
            XCTAssertEqual(try CaptureFileName.renderWindow(template, index: 4, title: "Big Buck Bunny", position: 62.5), expected, template)
        }
    }

    func testBadTemplatesAreRejectedWithTheReason() {
        let bad: [(String, String)] = [
            ("frames/{title}.png", "contains “/”"),
            ("{nope}.png", "Unknown token “{nope}”"),
            ("{title.png", "Unclosed"),
            ("{index:3}.png", "width must look like 03"),
            ("{title:03}.png", "Unknown token"),
            ("", "empty"),
        ]
        for (template, reason) in bad {
            XCTAssertThrowsError(try CaptureFileName.validate(template), template) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(template): \(error)")
            }
        }
    }

    func testSanitisedTitlesAreShortAndSafe() {
        let long = String(repeating: "abc def ", count: 40)
        let s = CaptureFileName.sanitise(long)
        XCTAssertLessThanOrEqual(s.count, 60)
        XCTAssertFalse(s.contains(" "))
        XCTAssertEqual(CaptureFileName.sanitise("a__b  c"), "a_b_c")
        XCTAssertEqual(CaptureFileName.title(for: "file:///m/My%20Clip.mp4"), "My Clip")
        XCTAssertEqual(CaptureFileName.title(for: "file:///m/clip.mp4", tagTitle: "Tagged"), "Tagged")
    }
}
