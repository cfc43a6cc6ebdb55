import Foundation
import ReelCore
import XCTest

/// Every segment URL of a static MPD: template identifiers, timelines, BaseURLs level by level.
final class DASHSegmentsTests: XCTestCase {
    func testTemplateIdentifiers() {
        let table: [(String, String)] = [
            ("chunk-$RepresentationID$-$Number%05d$.m4s", "chunk-v1-00007.m4s"), ("$Number$.m4s", "7.m4s"), ("t$Time$.m4s", "t90000.m4s"),
            ("$Bandwidth$/$Number%03d$", "500000/007"), ("a$$b", "a$b"), ("$Unknown$x", "$Unknown$x"), ("open$Number", "open$Number"),
        ]
        for (template, expected) in table {
            XCTAssertEqual(DASHSegments.expand(template, id: "v1", bandwidth: 500_000, number: 7, time: 90_000), expected, template)
        }
    }

    func testTimelinesDurationsListsAndBaseURLs() throws {
        let mpd = """
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT6S"><BaseURL>https://cdn.example/a/</BaseURL>
        <Period><AdaptationSet><BaseURL>video/</BaseURL>
          <Representation id="tl" bandwidth="1"><SegmentTemplate timescale="10" initialization="$RepresentationID$-init.mp4" media="$RepresentationID$-$Time$.m4s" startNumber="5">
            <SegmentTimeline><S t="100" d="20" r="1"/><S d="20"/></SegmentTimeline></SegmentTemplate></Representation>
          <Representation id="dur" bandwidth="2"><BaseURL>/abs/</BaseURL><SegmentTemplate duration="2" media="n$Number$.m4s"/></Representation>
          <Representation id="list" bandwidth="3"><SegmentList><Initialization sourceURL="i.mp4"/><SegmentURL media="s1.m4s"/><SegmentURL media="s2.m4s"/></SegmentList></Representation>
          <Representation id="file" bandwidth="4"><BaseURL>whole.mp4</BaseURL><SegmentBase/></Representation>
        </AdaptationSet></Period></MPD>
        """
        let reps = DASHSegments.list(mpd, base: URL(string: "https://origin.example/x/manifest.mpd")!)
        XCTAssertEqual(reps.map(\.id), ["tl", "dur", "list", "file"])
        XCTAssertEqual(reps[0].initialization?.absoluteString, "https://cdn.example/a/video/tl-init.mp4")
        XCTAssertEqual(reps[0].media.map(\.lastPathComponent), ["tl-100.m4s", "tl-120.m4s", "tl-140.m4s"])
        XCTAssertEqual(reps[0].duration, 6)
        XCTAssertEqual(reps[1].media.map(\.absoluteString), ["https://cdn.example/abs/n1.m4s", "https://cdn.example/abs/n2.m4s", "https://cdn.example/abs/n3.m4s"])
        XCTAssertEqual(reps[2].initialization?.lastPathComponent, "i.mp4")
        XCTAssertEqual(reps[2].media.map(\.lastPathComponent), ["s1.m4s", "s2.m4s"])
        XCTAssertEqual(reps[3].media.map(\.absoluteString), ["https://cdn.example/a/video/whole.mp4"])
        XCTAssertTrue(DASHSegments.list(mpd.replacingOccurrences(of: "type=\"static\"", with: "type=\"dynamic\""), base: URL(string: "https://x/")!).isEmpty,
                      "a live MPD's segments are not a list")
    }
}
