import Foundation
import ReelCore
import XCTest

/// A live MPD's open last `r="-1"` is served as the segments there now (issue 56: dashdemux2 1.22
/// fetched ahead without end while the server answered every number).
final class DASHOpenRepeatsTests: XCTestCase {
    private func mpd(_ timeline: String, type: String = "dynamic", anchor: String = "2026-01-01T00:00:00Z") -> String {
        """
        <?xml version="1.0"?>
        <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="\(type)" availabilityStartTime="\(anchor)" minimumUpdatePeriod="PT2S" minBufferTime="PT2S">
          <Period id="0" start="PT0S"><AdaptationSet contentType="video" mimeType="video/mp4">
            <SegmentTemplate timescale="10" media="$Time$.m4s" initialization="init.mp4"><SegmentTimeline>\(timeline)</SegmentTimeline></SegmentTemplate>
            <Representation id="v" bandwidth="500000" width="640" height="360"/>
          </AdaptationSet></Period>
        </MPD>
        """
    }

    private func repeats(_ text: String) -> [String] {
        text.components(separatedBy: "r=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    private func served(_ text: String, at now: Date) throws -> String {
        try DASHManifestRewriter.rewrite(text, base: URL(string: "http://origin.example/live/manifest.mpd")!, directory: { _ in nil },
                                         manifest: { _ in nil }, now: now)
    }

    func testTheOpenLastRunIsTheSegmentsAvailableNow() throws {
        let anchor = ISO8601DateFormatter().date(from: "2026-01-01T00:00:00Z")!
        // 100.5 s after the anchor: with the gateway's 0.5 s guard, 100 s of 2 s segments (d=20 at
        // timescale 10) have ended.
        let now = anchor.addingTimeInterval(100.5)
        XCTAssertEqual(repeats(try served(mpd(#"<S t="0" d="20" r="-1"/>"#), at: now)), ["49"])
        // After a closed run: the open one starts where it ends (t 0 + 10 × 2 s = 20 s): 40 more.
        XCTAssertEqual(repeats(try served(mpd(#"<S t="0" d="20" r="9"/><S d="20" r="-1"/>"#), at: now)), ["9", "39"])
        // An earlier open run ends at the next S@t and is left as it is (its end is given).
        XCTAssertEqual(repeats(try served(mpd(#"<S t="0" d="20" r="-1"/><S t="400" d="20" r="-1"/>"#), at: now)), ["-1", "29"])
        // From 1970 in 1-tick steps: the newest day of segments, not 1.76·10^10.
        let old = try served(mpd(#"<S t="0" d="1" r="-1"/>"#, anchor: "1970-01-01T00:00:00Z"), at: now)
        XCTAssertEqual(repeats(old), [String(43_200 - 1)])
        // Before its first segment has ended: one.
        XCTAssertEqual(repeats(try served(mpd(#"<S t="0" d="20" r="-1"/>"#), at: anchor)), ["0"])
        // A static MPD keeps its open run (it ends with the Period).
        XCTAssertEqual(repeats(try served(mpd(#"<S t="0" d="20" r="-1"/>"#, type: "static"), at: now)), ["-1"])
    }
}
