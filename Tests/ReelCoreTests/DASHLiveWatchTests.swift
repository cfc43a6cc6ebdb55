import Foundation
@testable import ReelCore
import XCTest

/// `reel check --watch` on a live MPD: each rule on synthetic reloads, and none on a healthy
/// stream whose timeline follows the clock.
final class DASHLiveWatchTests: XCTestCase {
    private let anchor = Date(timeIntervalSince1970: 1_800_000_000)
    private let base = URL(string: "https://cdn.example/live/manifest.mpd")!

    private func iso(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: d)
    }

    /// A Representation's SegmentTimeline: `count` segments of 2 s from `first` (segment numbers from 1 + first).
    private func rep(_ id: String, count: Int, first: Int = 0, d: Int = 2000, t0: Int? = nil) -> String {
        """
        <Representation id="\(id)" bandwidth="300000"><SegmentTemplate timescale="1000" startNumber="\(first + 1)" media="\(id)-$Number$.m4s">\
        <SegmentTimeline><S t="\(t0 ?? first * d)" d="\(d)" r="\(count - 1)"/></SegmentTimeline></SegmentTemplate></Representation>
        """
    }

    private func mpd(published: Date, mup: String = "PT2S", periods: [(id: String, start: String?, sets: [[String]])]) -> String {
        let body = periods.map { p in
            "<Period id=\"\(p.id)\"\(p.start.map { " start=\"\($0)\"" } ?? "")>" + p.sets.map { "<AdaptationSet>" + $0.joined() + "</AdaptationSet>" }.joined() + "</Period>"
        }.joined()
        return """
        <?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="dynamic" availabilityStartTime="\(iso(anchor))" \
        publishTime="\(iso(published))" minimumUpdatePeriod="\(mup)" timeShiftBufferDepth="PT30S">\(body)</MPD>
        """
    }

    /// A healthy reload at `seconds` after the anchor: every segment that has ended is listed.
    private func healthy(at seconds: Double, video: [String] = ["v1", "v2"]) -> String {
        let n = Int(seconds / 2)
        return mpd(published: anchor.addingTimeInterval(seconds), periods: [("p0", "PT0S", [video.map { rep($0, count: n) }, [rep("a", count: n)]])])
    }

    private func observe(_ watch: inout DASHLiveWatch, _ text: String, at seconds: Double, watchStart: Double = 100) -> [LiveWatch.Problem] {
        let now = anchor.addingTimeInterval(seconds)
        let snapshot = DASHLiveWatch.snapshot(text, base: base, now: now)!
        return watch.observe(snapshot, at: seconds - watchStart, now: now, slack: 1)
    }

    func testAHealthyStreamBreaksNoRule() {
        var w = DASHLiveWatch()
        var problems: [LiveWatch.Problem] = []
        for s in stride(from: 100.0, through: 130, by: 1) { problems += observe(&w, healthy(at: s), at: s) }
        XCTAssertEqual(problems, [])
        XCTAssertNil(DASHLiveWatch.snapshot(healthy(at: 10).replacingOccurrences(of: "dynamic", with: "static"), base: base, now: anchor), "a static MPD is not live")
    }

    func testAStaleMPDAndAPublishTimeGoingBack() {
        var w = DASHLiveWatch()
        let frozen = healthy(at: 100)
        var problems: [LiveWatch.Problem] = []
        for s in stride(from: 100.0, through: 110, by: 1) { problems += observe(&w, frozen, at: s) }
        XCTAssertEqual(problems.map(\.code), ["mpd-stale", "availability-clock"], "\(problems)")
        XCTAssertEqual(problems.first { $0.code == "mpd-stale" }?.at ?? 0, 7, accuracy: 0.01, "1.5 × 2 s + the 2 s minimumUpdatePeriod + a 1 s reload: after 6 s")
        XCTAssertEqual(problems[1].at, 8, accuracy: 0.01, "the newest segment ended 8 s ago: more than the update period and two segments, and a second")
        XCTAssertTrue(problems[1].message.contains("lags the clock"), problems[1].message)

        var back = DASHLiveWatch()
        XCTAssertEqual(observe(&back, healthy(at: 110), at: 110), [])
        let older = healthy(at: 111).replacingOccurrences(of: "publishTime=\"\(iso(anchor.addingTimeInterval(111)))\"", with: "publishTime=\"\(iso(anchor.addingTimeInterval(90)))\"")
        let said = observe(&back, older, at: 111)
        XCTAssertEqual(said.map(\.code), ["publish-time-backwards"])
        XCTAssertTrue(said[0].message.hasPrefix("MPD@publishTime went back 20.0 s"), said[0].message)
    }

    func testATimelineAheadOfTheClock() {
        var w = DASHLiveWatch()
        // At 100 s the MPD lists segments to 110 s: announced before they are available.
        let ahead = mpd(published: anchor.addingTimeInterval(100), periods: [("p0", "PT0S", [[rep("v1", count: 55)]])])
        let said = observe(&w, ahead, at: 100)
        XCTAssertEqual(said.map(\.code), ["availability-clock"])
        XCTAssertTrue(said[0].message.contains("announced 10.0 s before it ends"), said[0].message)
        XCTAssertEqual(observe(&w, ahead, at: 101), [], "once per episode")
    }

    func testPeriodsChangeAndAGapBetweenThem() {
        var w = DASHLiveWatch()
        XCTAssertEqual(observe(&w, healthy(at: 100), at: 100), [])
        // A second Period from 100 s; the first ends at its last segment, 100 s: contiguous.
        let joined = mpd(published: anchor.addingTimeInterval(104), periods: [("p0", "PT0S", [[rep("v1", count: 50)]]), ("ad", "PT100S", [[rep("v1", count: 2)]])])
        let said = observe(&w, joined, at: 104)
        XCTAssertEqual(said.map(\.code), ["period-change"])
        XCTAssertEqual(said[0].severity, .warning)
        XCTAssertEqual(said[0].message, "a new Period “ad” at 100.0 s")
        // A third Period 3 s after the second ends: a gap.
        let gap = mpd(published: anchor.addingTimeInterval(110), periods: [("ad", "PT100S", [[rep("v1", count: 2)]]), ("p1", "PT107S", [[rep("v1", count: 1)]])])
        let gapSaid = observe(&w, gap, at: 110)
        XCTAssertEqual(gapSaid.map(\.code), ["period-change", "period-gap"])
        XCTAssertTrue(gapSaid[1].message.hasSuffix("a gap of 3.000 s"), gapSaid[1].message)
    }

    func testARepresentationLaggingAndTimelinesThatDoNotAlign() {
        var w = DASHLiveWatch()
        // v2 stops 3 segments behind: said at the second reload that shows it.
        func lagging(_ s: Double) -> String {
            let n = Int(s / 2)
            return mpd(published: anchor.addingTimeInterval(s), periods: [("p0", "PT0S", [[rep("v1", count: n), rep("v2", count: n - 3)], [rep("a", count: n)]])])
        }
        XCTAssertEqual(observe(&w, lagging(100), at: 100), [])
        let said = observe(&w, lagging(101), at: 101)
        XCTAssertEqual(said.map(\.code), ["representation-lagging"])
        XCTAssertEqual(said[0].variant, "v2")
        XCTAssertEqual(observe(&w, lagging(102), at: 102), [], "once per episode")

        var m = DASHLiveWatch()
        // v2's segments start 1 s later than v1's: not aligned within the AdaptationSet.
        let shifted = mpd(published: anchor.addingTimeInterval(100), periods: [("p0", "PT0S", [[rep("v1", count: 49), rep("v2", count: 49, t0: 1000)]])])
        let mismatch = observe(&m, shifted, at: 100)
        XCTAssertEqual(mismatch.map(\.code), ["timeline-mismatch"])
        XCTAssertEqual(mismatch[0].variant, "v1+v2")
    }

    /// Which segments a reload makes due: each Representation's newest at the first, then every
    /// new one, resolved against the MPD; and a Representation counted by the clock ($Number$ and
    /// @duration) as well as a listed one.
    func testTheSegmentsDueAndTheUnavailableOnes() throws {
        var w = DASHLiveWatch()
        let counted = """
        <Representation id="c" bandwidth="1"><SegmentTemplate timescale="1000" duration="2000" startNumber="1" media="c-$Number$.m4s"/></Representation>
        """
        func reload(_ s: Double) -> DASHLiveWatch.Snapshot {
            let n = Int(s / 2)
            return DASHLiveWatch.snapshot(mpd(published: anchor.addingTimeInterval(s), periods: [("p0", "PT0S", [[rep("v1", count: n)], [counted]])]),
                                          base: base, now: anchor.addingTimeInterval(s))!
        }
        XCTAssertEqual(w.due(reload(100), now: anchor.addingTimeInterval(100)).map(\.url.absoluteString),
                       ["https://cdn.example/live/v1-50.m4s", "https://cdn.example/live/c-50.m4s"])
        XCTAssertEqual(w.due(reload(104.5), now: anchor.addingTimeInterval(104.5)).map(\.url.lastPathComponent), ["v1-51.m4s", "v1-52.m4s", "c-51.m4s", "c-52.m4s"])
        XCTAssertEqual(w.due(reload(104.5), now: anchor.addingTimeInterval(104.5)).count, 0, "each once")
        let url = URL(string: "https://cdn.example/live/v1-52.m4s")!
        let problem = try XCTUnwrap(w.unavailable(url, representation: "v1", status: 404, at: 4.5))
        XCTAssertEqual(problem.code, "segment-unavailable")
        XCTAssertEqual(problem.message, "v1-52.m4s is announced and available by the clock, answered HTTP 404")
        XCTAssertNil(w.unavailable(url, representation: "v1", status: 404, at: 5), "said once")
    }
}
