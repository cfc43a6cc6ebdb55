import Foundation
import ReelCore
import XCTest

/// `DASHMediaMatcher`: which video Representation a fetched URL is, by table, for every way an
/// MPD names media (ISO/IEC 23009-1 §5.3.9: SegmentTemplate with `$Number$`, `$Time$`, widths,
/// `$RepresentationID$`, `$Bandwidth$`; SegmentList; SegmentBase), BaseURLs at each level.
final class DASHMediaMatcherTests: XCTestCase {
    func testFetchedURLsAreTheirRepresentations() throws {
        let mpd = """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static"><BaseURL>https://cdn.example/v/</BaseURL><Period>
          <AdaptationSet contentType="video">
            <SegmentTemplate media="chunk-stream$RepresentationID$-$Number%05d$.m4s" initialization="init-stream$RepresentationID$.m4s"/>
            <Representation id="0" bandwidth="500000" height="360"/>
            <Representation id="1" bandwidth="1500000" height="720"/>
          </AdaptationSet>
          <AdaptationSet mimeType="video/mp4"><BaseURL>hd/</BaseURL>
            <Representation id="t" bandwidth="4000000"><SegmentTemplate media="$Bandwidth$/t-$Time$.mp4"/></Representation>
            <Representation id="l" bandwidth="6000000"><SegmentList><SegmentURL media="l1.mp4"/><SegmentURL media="/abs/l2.mp4"/></SegmentList></Representation>
            <Representation id="b" bandwidth="8000000"><BaseURL>b.mp4</BaseURL><SegmentBase indexRange="0-99"/></Representation>
          </AdaptationSet>
          <AdaptationSet contentType="audio"><Representation id="a" bandwidth="64000">
            <SegmentTemplate media="chunk-stream$RepresentationID$-$Number%05d$.m4s"/></Representation></AdaptationSet>
        </Period></MPD>
        """
        let matcher = try XCTUnwrap(DASHMediaMatcher(mpd, base: URL(string: "https://origin.example/live/manifest.mpd")!))
        let rows: [(String, String?)] = [
            ("https://cdn.example/v/chunk-stream0-00001.m4s", "0"),
            ("https://cdn.example/v/chunk-stream1-00042.m4s", "1"),
            ("https://cdn.example/v/chunk-stream1-.m4s", nil),
            ("https://cdn.example/v/init-stream1.m4s", nil),
            ("https://cdn.example/v/chunk-streama-00001.m4s", nil),
            ("https://cdn.example/v/hd/4000000/t-90000.mp4", "t"),
            ("https://cdn.example/v/hd/l1.mp4", "l"),
            ("https://cdn.example/abs/l2.mp4", "l"),
            ("https://cdn.example/v/hd/b.mp4", "b"),
            ("https://origin.example/live/chunk-stream0-00001.m4s", nil),
            ("https://origin.example/live/manifest.mpd", nil),
        ]
        for (url, expected) in rows {
            XCTAssertEqual(matcher.representation(of: URL(string: url)!), expected, url)
        }
        XCTAssertNil(DASHMediaMatcher("<html/>", base: URL(string: "https://h/")!))
    }
}
