import Foundation
import ReelCore
import XCTest

final class CheckReportTests: XCTestCase {
    private func sample() -> CheckReport {
        var ok = CheckReport.Item(index: 0, input: "/m/color10s.mp4", uri: "file:///m/color10s.mp4", title: "color10s")
        ok.duration = 10; ok.width = 640; ok.height = 360; ok.videoCodec = "H.264"; ok.timeToFirstFrame = 0.04; ok.decodedToEnd = true
        ok.frames = [.init(requested: "50%", target: 5, time: 5, file: "frames/000-color10s-00h00m05s000.png", width: 640, height: 360)]
        var bad = CheckReport.Item(index: 1, input: "https://h/<script>.mp4?token=SECRET", uri: "https://h/<script>.mp4?token=SECRET", title: "<b>evil</b> & co")
        bad.error = PlaybackError(kind: .notFound, message: "The server has no such file (404).", httpStatus: 404, uri: bad.uri)
        bad.frames = [.init(requested: "50%", problem: "not captured: the item failed")]
        return CheckReport(items: [ok, bad], positions: ["50%"], generated: Date(timeIntervalSince1970: 0), wallSeconds: 1.25, contactSheet: "contact-sheet.png")
    }

    func testJSONHasTheDocumentedShape() throws {
        let text = sample().jsonText
        XCTAssertFalse(text.contains("SECRET"))
        let o = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(o["reel"] as? String, "check")
        XCTAssertEqual(o["version"] as? Int, 1)
        let summary = try XCTUnwrap(o["summary"] as? [String: Any])
        XCTAssertEqual(summary["items"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["mediaSeconds"] as? Double, 10)
        let items = try XCTUnwrap(o["items"] as? [[String: Any]])
        XCTAssertEqual(items[0]["ok"] as? Bool, true)
        XCTAssertTrue(items[0]["error"] is NSNull)
        XCTAssertEqual((items[0]["frames"] as? [[String: Any]])?.first?["time"] as? Double, 5)
        XCTAssertEqual((items[1]["error"] as? [String: Any])?["code"] as? String, "not-found")
        XCTAssertEqual((items[1]["error"] as? [String: Any])?["httpStatus"] as? Int, 404)
    }

    func testHTMLEscapesEverythingFromMediaAndTheCommandLine() {
        let html = CheckReportHTML.render(sample())
        XCTAssertFalse(html.contains("<script>"))
        XCTAssertFalse(html.contains("<b>evil"))
        XCTAssertTrue(html.contains("&lt;b&gt;evil&lt;/b&gt; &amp; co"))
        XCTAssertFalse(html.contains("SECRET"))
        XCTAssertTrue(html.contains("FAILED: not-found"))
        XCTAssertTrue(html.contains("src=\"frames/000-color10s-00h00m05s000.png\""))
        XCTAssertEqual(CheckReportHTML.escape(#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;")
    }

    func testPNGSizeIsReadFromTheHeader() {
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!
        XCTAssertEqual(CapturedFrame.pngSize(png)?.width, 1)
        XCTAssertNil(CapturedFrame.pngSize(Data("not a png at all, really not".utf8)))
    }
}
