import ReelCore
import XCTest

/// `reel inspect` on MPDs: durations, Representations with what they inherit, segments however
/// they are addressed, and the problems (ISO/IEC 23009-1).
final class DASHInspectionTests: XCTestCase {
    private func inspect(_ body: String, type: String = "static", duration: String? = "PT8S") -> [String: Any] {
        let mpd = """
        <?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" \(duration.map { "mediaPresentationDuration=\"\($0)\"" } ?? "") minBufferTime="PT2S">\(body)</MPD>
        """
        let r = DASHInspection.inspect(mpd, uri: "file:///a.mpd", name: "a.mpd")
        return (try? JSONSerialization.jsonObject(with: Data(r.json.serialized().utf8)) as? [String: Any]) ?? [:]
    }

    private func representations(_ o: [String: Any]) -> [[String: Any]] {
        ((o["periods"] as? [[String: Any]]) ?? []).flatMap { ($0["adaptationSets"] as? [[String: Any]]) ?? [] }
            .flatMap { ($0["representations"] as? [[String: Any]]) ?? [] }
    }

    private func codes(_ o: [String: Any]) -> [String] { ((o["problems"] as? [[String: Any]]) ?? []).compactMap { $0["code"] as? String } }

    func testISODurations() {
        let table: [(String, Double?)] = [("PT8S", 8), ("PT8.5S", 8.5), ("PT1M30S", 90), ("PT1H", 3600), ("P1DT1S", 86_401), ("PT0S", 0),
                                          ("P0Y0M0DT0H0M10.000S", 10), ("8S", nil), ("PT", nil), ("PTS", nil), ("P1S", nil), ("-PT2S", -2)]
        for (text, expected) in table { XCTAssertEqual(DASHInspection.isoDuration(text), expected, text) }
    }

    func testSegmentsHoweverTheyAreAddressed() {
        let o = inspect("""
        <Period id="p0"><AdaptationSet contentType="video" width="640" height="360" frameRate="30000/1001" codecs="avc1.4d401e">
          <SegmentTemplate timescale="1000" media="$Number$.m4s" duration="2000"/>
          <Representation id="number" bandwidth="500000"/>
          <Representation id="timeline" bandwidth="900000"><SegmentTemplate timescale="90000" media="$Time$.m4s">
            <SegmentTimeline><S t="0" d="180000" r="2"/><S d="180000" r="-1"/></SegmentTimeline></SegmentTemplate></Representation>
          <Representation id="list" bandwidth="700000"><SegmentList timescale="1" duration="4"><SegmentURL media="a"/><SegmentURL media="b"/></SegmentList></Representation>
          <Representation id="base" bandwidth="300000" width="320" height="180"><BaseURL>v.mp4</BaseURL><SegmentBase indexRange="0-100"/></Representation>
        </AdaptationSet></Period>
        """)
        let reps = representations(o)
        XCTAssertEqual(reps.compactMap { $0["addressing"] as? String }, ["template-duration", "template-timeline", "list", "base"])
        XCTAssertEqual(reps.map { $0["segments"] as? Int }, [4, 4, 2, 1], "8 s of 2 s; 3 + the rest of the Period; two URLs; one file")
        XCTAssertEqual(reps.map { $0["segmentsDuration"] as? Double }, [8, 8, 8, nil])
        XCTAssertEqual(reps.map { $0["width"] as? Int }, [640, 640, 640, 320], "inherited from the AdaptationSet unless the Representation says")
        XCTAssertEqual(try XCTUnwrap(reps.first?["frameRate"] as? Double), 29.97, accuracy: 0.01)
        XCTAssertEqual(o["ok"] as? Bool, true)
        XCTAssertEqual(codes(o), [])
    }

    func testProblems() {
        let missing = inspect("""
        <Period><AdaptationSet contentType="video"><Representation id="v"><SegmentTemplate timescale="1" duration="2" media="$Number$"/></Representation>
        <Representation id="short" bandwidth="1"><SegmentTemplate timescale="1" media="$Number$"><SegmentTimeline><S d="2" r="1"/></SegmentTimeline></SegmentTemplate></Representation>
        <Representation id="nothing" bandwidth="1"/></AdaptationSet></Period>
        """)
        XCTAssertEqual(codes(missing), ["missing-bandwidth", "duration-mismatch", "no-segment-information"])
        XCTAssertEqual(missing["ok"] as? Bool, false)
        XCTAssertEqual(codes(inspect("<Period/>")), ["no-representations"])
        let live = inspect("<Period><AdaptationSet><Representation id=\"l\" bandwidth=\"1\"><SegmentTemplate duration=\"2\" media=\"$Number$\"/></Representation></AdaptationSet></Period>",
                           type: "dynamic", duration: nil)
        XCTAssertEqual(live["mpdType"] as? String, "dynamic")
        XCTAssertTrue(representations(live).first?["segments"] is NSNull, "a live template has no count")
        XCTAssertEqual(codes(live), [])
        let bad = DASHInspection.inspect("<html/>", uri: "u", name: "x.mpd")
        XCTAssertFalse(bad.ok)
    }
}

/// An MPD with no XML in it (an empty 200, spaces, a lone "<") is refused, never handed to
/// FoundationXML's XMLDocument, which dereferenced NULL on an empty body (the `dash` fuzz target).
final class MPDDocumentTests: XCTestCase {
    func testBodiesWithoutXMLAreRefusedEverywhere() {
        // The fuzz target's second find: a truncated MPD with a second XML declaration in it.
        let truncated = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MPD xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n\txmlns=\"urn:mpeg:dash<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MPD type=\"static\">"
        for text in ["", "   ", "\n", "<", ">", "no xml at all", truncated] {
            XCTAssertFalse(DASHInspection.inspect(text, uri: "u", name: "a.mpd").ok, text.debugDescription)
            XCTAssertTrue(DASHManifest.videoRenditions(text).isEmpty, text.debugDescription)
            XCTAssertTrue(DASHSegments.list(text, base: URL(string: "https://x/a.mpd")!).isEmpty, text.debugDescription)
            XCTAssertThrowsError(try DASHManifestRewriter.rewrite(text, base: URL(string: "https://x/a.mpd")!, directory: { _ in "/d/" }, manifest: { _ in "/m" }),
                                 text.debugDescription)
        }
    }
}
