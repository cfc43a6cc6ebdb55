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
        var live = CheckReport.Item(index: 2, input: "http://h/live.m3u8", uri: "http://h/live.m3u8", title: "live")
        live.qoe = PlaybackQoE()
        live.qoe?.playSeconds = 20.5
        XCTAssertEqual(CheckReport(items: sample().items + [live], positions: []).mediaSeconds, 30.5, "a live item counts what it played (it has no duration)")
        let items = try XCTUnwrap(o["items"] as? [[String: Any]])
        XCTAssertEqual(items[0]["ok"] as? Bool, true)
        XCTAssertTrue(items[0]["error"] is NSNull)
        XCTAssertEqual((items[0]["frames"] as? [[String: Any]])?.first?["time"] as? Double, 5)
        XCTAssertEqual((items[1]["error"] as? [String: Any])?["code"] as? String, "not-found")
        XCTAssertEqual((items[1]["error"] as? [String: Any])?["httpStatus"] as? Int, 404)
    }

    /// `reel check merge` reads back every field report.json writes, in the documented order
    /// (writer and reader are one table: a field one of them forgot would come back empty here).
    func testEveryFieldOfAnItemComesBackFromReportJSON() throws {
        var item = CheckReport.Item(index: 3, input: "/m/a.mkv", uri: "file:///m/a.mkv", title: "a")
        item.duration = 12.5; item.width = 1280; item.height = 720; item.videoCodec = "H.264"; item.audioCodec = "Opus"
        item.videoDecoder = "avdec_h264"; item.audioDecoder = "opusdec"; item.hardwareDecoding = false
        var qoe = PlaybackQoE()
        qoe.droppedFrames = 2; qoe.renderedFrames = 300; qoe.stalls = 1; qoe.stallSeconds = 0.5; qoe.startupSeconds = 0.125; qoe.renditionSwitches = 3
        item.qoe = qoe
        item.container = "Matroska"; item.seekable = true; item.live = true; item.timeToFirstFrame = 0.25; item.decodedToEnd = true
        item.checkSeconds = 4.5
        item.frames = [.init(requested: "50%", target: 6.25, time: 6.25, file: "frames/a.png", width: 1280, height: 720),
                       .init(requested: "99", problem: "past the end")]
        item.error = PlaybackError(kind: .decode, message: "The video could not be decoded.", httpStatus: 500, uri: "file:///m/a.mkv")
        item.watch = CheckReport.Watch(duration: 30, variants: ["v1.m3u8"], reloads: 7, segmentsFetched: 12,
                                       timeline: [LiveWatch.Problem(at: 12.5, variant: "v1.m3u8", code: "stale", severity: .warning, message: "no new segment")])
        item.problems = [HLSProblem(line: 4, severity: .warning, code: "segment-too-long", message: "longer than the target")]
        let text = CheckReport(items: [item], positions: ["50%", "99"]).jsonText
        let back = try XCTUnwrap(CheckReport.decode(Data(text.utf8)).items.first)
        XCTAssertEqual(back, item)
        let keys = ["\"index\"", "\"input\"", "\"uri\"", "\"title\"", "\"ok\"", "\"duration\"", "\"width\"", "\"height\"", "\"videoCodec\"",
                    "\"audioCodec\"", "\"videoDecoder\"", "\"audioDecoder\"", "\"hardware\"", "\"qoe\"", "\"container\"", "\"seekable\"",
                    "\"live\"", "\"timeToFirstFrame\"", "\"decodedToEnd\"", "\"checkSeconds\"", "\"frames\"", "\"error\"", "\"watch\"",
                    "\"problems\""]
        let itemText = String(text[text.range(of: "\"items\":[")!.upperBound...])
        let places = keys.map { itemText.range(of: $0 + ":")?.lowerBound }
        XCTAssertFalse(places.contains(nil), "every key is written: \(zip(keys, places).filter { $0.1 == nil }.map(\.0))")
        XCTAssertEqual(places.compactMap { $0 }, places.compactMap { $0 }.sorted(), "in the documented order")
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
