import ReelCore
import XCTest

/// `RenditionReport`: rendition events say what the player fetches, by table.
final class RenditionReportTests: XCTestCase {
    private let r = [HLSVariant(uri: "gw/1/360.m3u8", bandwidth: 1_000_000), HLSVariant(uri: "gw/1/720.m3u8", bandwidth: 3_000_000)]
    private typealias S = RenditionReport.Statement

    func testADecisionIsSaidWhenTheFetchesShowIt() {
        var report = RenditionReport()
        XCTAssertNil(report.decided(item: "a", target: 1, reason: "start", renditions: r), "720p asked for: nothing fetched yet")
        XCTAssertEqual(report.fetched(item: "a", uri: "gw/1/720.m3u8", renditions: r), S(index: 1, reason: "start"))
        XCTAssertNil(report.fetched(item: "a", uri: "gw/1/720.m3u8", renditions: r), "the same variant again says nothing")
        XCTAssertNil(report.decided(item: "a", target: 0, reason: "manual", renditions: r))
        XCTAssertEqual(report.playing(in: r), 1, "720p plays until 360p is fetched")
        XCTAssertEqual(report.fetched(item: "a", uri: "gw/1/360.m3u8", renditions: r), S(index: 0, reason: "manual"))
    }

    func testWhatIsSaidIsWhatIsFetched() {
        let rows: [(String, [(String, Any)], [S?])] = [
            ("a pin the demuxer did not honour", [("decide", (1, "start")), ("fetch", "gw/1/360.m3u8")], [nil, S(index: 0, reason: "unavailable")]),
            ("a switch nobody decided", [("fetch", "gw/1/360.m3u8"), ("fetch", "gw/1/720.m3u8")], [nil, S(index: 1, reason: "demuxer")]),
            ("a decision for what already plays is said at once", [("fetch", "gw/1/720.m3u8"), ("decide", (1, "manual"))],
             [nil, S(index: 1, reason: "manual")]),
            ("no pin (a cap): said with what is fetched", [("decide", (-1, "policy")), ("fetch", "gw/1/360.m3u8")], [nil, S(index: 0, reason: "policy")]),
            ("a fetch of another item starts afresh", [("decide", (1, "start")), ("fetch-b", "gw/2/360.m3u8")], [nil, nil]),
        ]
        for (name, steps, expected) in rows {
            var report = RenditionReport()
            var said: [S?] = []
            for (what, value) in steps {
                switch what {
                case "decide":
                    let (target, reason) = value as! (Int, String)
                    said.append(report.decided(item: "a", target: target < 0 ? nil : target, reason: reason, renditions: r))
                case "fetch": said.append(report.fetched(item: "a", uri: value as! String, renditions: r))
                default: said.append(report.fetched(item: "b", uri: value as! String, renditions: r))
                }
            }
            XCTAssertEqual(said, expected, name)
        }
    }

    /// dashdemux2 1.22 fetches a video stream's first fragment at its lowest Representation
    /// whatever the pin: that fragment is the demuxer's, and the pin is said when it is fetched;
    /// without the quirk (HLS) the same fetch is a pin not honoured.
    func testAFirstFragmentAtTheLowestIsTheDemuxersWhenItAlwaysIs() {
        var report = RenditionReport()
        XCTAssertNil(report.decided(item: "a", target: 1, reason: "start", mode: "manual", renditions: r))
        XCTAssertEqual(report.fetched(item: "a", uri: "0", renditions: dash, firstAtLowest: true), S(index: 0, reason: "demuxer"))
        XCTAssertEqual(report.fetched(item: "a", uri: "1", renditions: dash, firstAtLowest: true), S(index: 1, reason: "start"))

        var notFirst = RenditionReport()
        XCTAssertNil(notFirst.decided(item: "a", target: 1, reason: "start", renditions: dash))
        XCTAssertEqual(notFirst.fetched(item: "a", uri: "0", renditions: dash), S(index: 0, reason: "unavailable"), "HLS: not honoured")

        var pinnedLowest = RenditionReport()
        XCTAssertNil(pinnedLowest.decided(item: "a", target: 0, reason: "start", renditions: dash))
        XCTAssertEqual(pinnedLowest.fetched(item: "a", uri: "0", renditions: dash, firstAtLowest: true), S(index: 0, reason: "start"), "the lowest asked for")
    }

    private var dash: [HLSVariant] { [HLSVariant(uri: "0", bandwidth: 500_000), HLSVariant(uri: "1", bandwidth: 1_500_000)] }

    /// The first segment can be fetched before the master's renditions are read: the decision
    /// made when they are is said at once, with the rendition already fetched.
    func testAFetchBeforeTheRenditionsAreKnown() {
        var report = RenditionReport()
        XCTAssertNil(report.fetched(item: "a", uri: "gw/1/720.m3u8", renditions: []))
        XCTAssertEqual(report.decided(item: "a", target: 1, reason: "start", renditions: r), S(index: 1, reason: "start"))
    }

    /// The user chose auto while 180p is pinned: the mode is said at once (with what plays), the
    /// rendition when the fetches show it.
    func testAChangeOfModeIsSaidAtOnce() {
        var report = RenditionReport()
        XCTAssertNil(report.decided(item: "a", target: 0, reason: "start", mode: "manual", renditions: r))
        XCTAssertEqual(report.fetched(item: "a", uri: "gw/1/360.m3u8", renditions: r), S(index: 0, reason: "start"))
        XCTAssertEqual(report.decided(item: "a", target: 1, reason: "manual", mode: "auto", renditions: r), S(index: 0, reason: "manual"))
        XCTAssertNil(report.decided(item: "a", target: 1, reason: "auto-up", mode: "auto", renditions: r), "the same mode: wait for the fetches")
        XCTAssertEqual(report.fetched(item: "a", uri: "gw/1/720.m3u8", renditions: r), S(index: 1, reason: "auto-up"))
    }
}
